// The client backend for offline runs: the assistant's deterministic offline behaviour plays the backend
// model. Like a real backend it knows only what the application knows: the authorized context it was built
// with and the transcript the delegations handed over (its own memory, grown run by run). It acts on the
// caller's latest request with the earlier turns of that memory as the conversation so far, runs at most
// one tool through the host's callback, and answers with the behaviour's final answer (or its direct
// answer when no tool applies).

import { estimatedUsage } from '../../../testing/estimated-usage.ts'
import type { JsonObject, OfflineBehaviour, SpokenTurn } from '../../offline-behaviour.ts'
import { parseSrt, type SrtEntry } from '../delegation/srt.ts'
import { RestaurantOfflineBehaviour } from '../offline/restaurant-offline-behaviour.ts'
import { publicBusinessFacts } from '../tools/resources.ts'
import {
  type ApplicationBackend,
  type ApplicationToolCallback,
  type BackendRunOptions,
  type DelegationHandoff,
  type EmitObservation,
  handoffPrompt,
} from './application-backend.ts'
import { callToolObserved } from './tool-callback.ts'

export interface OfflineBackendOptions {
  /** Builds the behaviour over the authorized context (the call's own turns come with each request). */
  behaviourFor: (conversationContext: string) => OfflineBehaviour
  callTool: ApplicationToolCallback
  /** What the application may tell its backend before the call: summary and history lines. */
  authorizedContext?: string
}

export class OfflineApplicationBackend implements ApplicationBackend {
  readonly #behaviourFor: (conversationContext: string) => OfflineBehaviour
  readonly #callTool: ApplicationToolCallback
  readonly #authorizedContext: string
  /** The transcript handed over so far, as turns (the application-owned memory). */
  readonly #heard: SpokenTurn[] = []
  #calls = 0
  #responses = 0
  #closed = false

  constructor(options: OfflineBackendOptions) {
    this.#behaviourFor = options.behaviourFor
    this.#callTool = options.callTool
    this.#authorizedContext = options.authorizedContext ?? ''
  }

  async run(
    handoff: DelegationHandoff,
    emit: EmitObservation,
    options: BackendRunOptions = {},
  ): Promise<string> {
    if (this.#closed) throw new Error('The offline client backend is closed; create a new one per session.')
    const entries = parseSrt(handoff.transcript_srt)
    const { before, request } = splitLatestRequest(entries)
    const earlier = [...this.#heard, ...before.map(asTurn)]
    this.#heard.push(...entries.map(asTurn))
    const behaviour = this.#behaviourFor(this.#authorizedContext)
    const prompt = `${this.#authorizedContext}\n${handoffPrompt(handoff)}`
    const call = behaviour.inferToolCall(request, earlier)
    if (call === null) return this.#answered(emit, prompt, behaviour.directAnswer(request, earlier))
    options.signal?.throwIfAborted()
    this.#calls += 1
    const output: JsonObject = await callToolObserved(this.#callTool, emit, {
      name: call.name,
      arguments: call.arguments,
      callId: `call_offline_${this.#calls}`,
    })
    return this.#answered(emit, `${prompt}\n${JSON.stringify(output)}`, behaviour.finalAnswer(output))
  }

  /**
   * Publishes the response's completion with its usage, as a model backend's stream does, so an offline run
   * reports backend consumption like a live one. Nothing tokenizes offline: the counts are the test servers'
   * estimate over what the backend read (context, handoff, tool output) and what it answered.
   */
  #answered(emit: EmitObservation, read: string, answer: string): string {
    this.#responses += 1
    emit({
      type: 'response.completed',
      response: {
        id: `resp_offline_${this.#responses}`,
        status: 'completed',
        usage: { ...estimatedUsage(read, answer) },
      },
    })
    return answer
  }

  async close(): Promise<void> {
    this.#closed = true
  }
}

export interface RestaurantOfflineBackendOptions {
  /** The scenario's visible conversation context (summary, then `role: text` history lines). */
  authorizedContext: string
  /** The application state the assistant is authorized to read. */
  initialState: JsonObject
  callTool: ApplicationToolCallback
}

/** The client copy's restaurant behaviour as the offline backend; it sees public facts only. */
export function restaurantOfflineBackend(
  options: RestaurantOfflineBackendOptions,
): OfflineApplicationBackend {
  const facts = publicBusinessFacts()
  const initialState = structuredClone(options.initialState)
  return new OfflineApplicationBackend({
    authorizedContext: options.authorizedContext,
    callTool: options.callTool,
    behaviourFor: (conversationContext) =>
      new RestaurantOfflineBehaviour({ conversationContext, initialState, facts }),
  })
}

/**
 * The caller's latest request: what the caller said after the assistant last spoke in the new part of the
 * transcript (everything the caller said in it, if the assistant said nothing). The rest is context.
 */
function splitLatestRequest(entries: readonly SrtEntry[]): { before: SrtEntry[]; request: string } {
  let lastAssistant = -1
  entries.forEach((entry, index) => {
    if (entry.role === 'ASSISTANT') lastAssistant = index
  })
  const after = entries.slice(lastAssistant + 1)
  return {
    before: entries.slice(0, lastAssistant + 1),
    request: after.map((entry) => entry.text).join(' '),
  }
}

function asTurn(entry: SrtEntry): SpokenTurn {
  return { role: entry.role === 'USER' ? 'user' : 'assistant', text: entry.text }
}
