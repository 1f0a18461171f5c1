// Responses delegation, played offline: the voice model delegates a caller request, the "backend" answers
// with one function call (decided by the assistant's offline behaviour), waits for the client to return
// its output with `response.item.create` and to continue with `response.create`, then answers with a
// message whose text the voice model speaks. Nested events are wrapped in `response.event` envelopes.
// The first backend response takes BACKEND_RESPONSE_MS of session time, as a real backend model takes time:
// the acknowledgement the voice model says at once is then heard before any tool result, as on the service.
// The continuation answers at once (its latency would only lengthen every offline run).
import type { InferredToolCall, JsonObject, OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import type { ParsedClientEventOf } from './client-events-schema.ts'
import type { OutboundServerEvent, SessionIds } from './events.ts'
import { ERROR_CODES, type ProtocolError, protocolError } from './protocol-errors.ts'
import { messageText } from './response-items-schema.ts'
import {
  type BackendResponseContext,
  failedResponse,
  functionCallResponse,
  messageResponse,
  type NestedResponseEvent,
} from './responses-stream.ts'
import type { OfflineServerFaults } from './script.ts'
import type { ResolvedDelegation } from './session-resource.ts'

type ResponsesConfig = Extract<ResolvedDelegation, { type: 'responses' }>['responses']

/**
 * Session time the offline backend takes to produce its function call. Live backends take from a few hundred
 * milliseconds to seconds; 400 ms is at the quick end and costs little audio.
 */
export const BACKEND_RESPONSE_MS = 400

interface PendingRound {
  delegationId: string
  /** Outputs by call_id; null until the client returns one. */
  outputs: Map<string, string | null>
  /** How many characters the backend has read so far, for the usage estimate (counted, not kept, so a
   * client adding item after item cannot grow the server's memory). */
  inputChars: number
}

export interface ResponsesDelegationDeps {
  ids: SessionIds
  send: (event: OutboundServerEvent) => void
  behaviour: OfflineBehaviour
  /** `created_at` (Unix seconds) for a backend response created now. */
  createdAt: () => number
  /** Makes the voice model say `text` (the answer of `delegationId`) now. */
  speak: (text: string, delegationId: string) => void
  /** Runs `action` once `delayMs` more of session time has passed (dropped if the session ends first). */
  after: (delayMs: number, action: () => void) => void
  /** The delegation is over without an answer to speak (its backend failed). */
  settled: (delegationId: string) => void
  /** The harness's backend faults (a fault profile); absent: the backend always answers. */
  faults?: OfflineServerFaults
}

/** True when the backend's configured tools include a function with this name. */
export function backendHasTool(config: ResponsesConfig, name: string): boolean {
  return (config.tools ?? []).some((tool) => tool.type === 'function' && tool.name === name)
}

export class ResponsesDelegation {
  readonly #deps: ResponsesDelegationDeps
  #round: PendingRound | null = null
  /** Set at close: responses still being produced are cancelled, as the service cancels queued work. */
  #abandoned = false

  constructor(deps: ResponsesDelegationDeps) {
    this.#deps = deps
  }

  /** Starts a delegation for `userText` whose backend calls `call`; returns the delegation id. */
  start(config: ResponsesConfig, userText: string, call: InferredToolCall, offsetMs: number): string {
    const { ids } = this.#deps
    const { delegationId, responseId } = this.#open(offsetMs)
    const callId = ids.next('call')
    const itemId = ids.next('fc')
    const inputChars =
      (config.instructions ?? '').length + JSON.stringify(config.tools ?? []).length + userText.length + 2
    const fault = this.#deps.faults?.delegation(delegationId, offsetMs) ?? null
    if (fault?.kind === 'backend_error') {
      this.#deps.after(BACKEND_RESPONSE_MS, () => {
        if (this.#abandoned) return
        this.#emit(delegationId, failedResponse(this.#context(config, responseId, inputChars)))
        const line = this.#deps.behaviour.backendFailed?.()
        if (line === undefined) this.#deps.settled(delegationId)
        else this.#deps.speak(line, delegationId)
      })
      return delegationId
    }
    const stallMs = fault?.kind === 'backend_stall' ? fault.delayMs : 0
    this.#deps.after(BACKEND_RESPONSE_MS + stallMs, () => {
      if (this.#abandoned) return
      const events = functionCallResponse(this.#context(config, responseId, inputChars), {
        itemId,
        callId,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      })
      this.#emit(delegationId, events)
      this.#round = { delegationId, outputs: new Map([[callId, null]]), inputChars }
    })
    return delegationId
  }

  /**
   * A reasoning round without tools (a simulated caller deciding what to say): the backend answers `reply` as
   * one message after BACKEND_RESPONSE_MS and the voice model speaks it. Returns the delegation id.
   */
  reason(config: ResponsesConfig, userText: string, reply: string, offsetMs: number): string {
    const { delegationId, responseId } = this.#open(offsetMs)
    const itemId = this.#deps.ids.next('msg')
    const inputChars = (config.instructions ?? '').length + userText.length + 1
    this.#deps.after(BACKEND_RESPONSE_MS, () => {
      if (this.#abandoned) return
      this.#emit(delegationId, messageResponse(this.#context(config, responseId, inputChars), itemId, reply))
      this.#deps.speak(reply, delegationId)
    })
    return delegationId
  }

  /** `response.item.create`: records a function output (or typed user input) for the pending round. */
  addItem(event: ParsedClientEventOf<'response.item.create'>): ProtocolError | null {
    const round = this.#round
    const item = event.item
    if (item.type !== 'function_call_output') {
      if (round !== null) round.inputChars += messageText(item).length + 1
      return null
    }
    if (round === null || !round.outputs.has(item.call_id)) {
      return protocolError(
        ERROR_CODES.invalidValue,
        `No pending function call has call_id '${item.call_id}'.`,
        'item.call_id',
      )
    }
    if (round.outputs.get(item.call_id) !== null) {
      return protocolError(
        ERROR_CODES.invalidValue,
        `A function_call_output for call_id '${item.call_id}' was already added.`,
        'item.call_id',
      )
    }
    const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output)
    round.outputs.set(item.call_id, output)
    round.inputChars += output.length + 1
    return null
  }

  /** `response.create`: continues the pending round once every call has its output. */
  continue(config: ResponsesConfig): ProtocolError | null {
    const round = this.#round
    if (round === null) {
      return protocolError(
        ERROR_CODES.unsupportedOffline,
        'There is no pending function call round to continue; the offline backend only continues tool rounds.',
      )
    }
    const missing = [...round.outputs].filter(([, output]) => output === null).map(([callId]) => callId)
    if (missing.length > 0) {
      return protocolError(
        ERROR_CODES.invalidValue,
        `Add a function_call_output for call_id ${missing.join(', ')} before response.create.`,
      )
    }
    this.#round = null
    const outputs = [...round.outputs.values()].map((output) => parseToolOutput(output ?? ''))
    const text = this.#deps.behaviour.finalAnswer(outputs[0] ?? {})
    const { ids } = this.#deps
    const events = messageResponse(
      this.#context(config, ids.next('resp'), round.inputChars),
      ids.next('msg'),
      text,
    )
    this.#emit(round.delegationId, events)
    this.#deps.speak(text, round.delegationId)
    return null
  }

  /** At close a round waiting for function results cannot continue, and queued responses are cancelled. */
  abandon(): void {
    this.#round = null
    this.#abandoned = true
  }

  /** A new delegation to the backend: its ids, announced to the client with `session.delegation.created`. */
  #open(offsetMs: number): { delegationId: string; responseId: string } {
    const { ids, send } = this.#deps
    const delegationId = ids.next('item_deleg')
    const responseId = ids.next('resp')
    send({
      type: 'session.delegation.created',
      offset_ms: offsetMs,
      delegation: { id: delegationId, type: 'delegation', target: 'responses', response_id: responseId },
    })
    return { delegationId, responseId }
  }

  #context(config: ResponsesConfig, responseId: string, inputChars: number): BackendResponseContext {
    return {
      responseId,
      model: config.model,
      createdAt: this.#deps.createdAt(),
      parallelToolCalls: config.parallel_tool_calls ?? true,
      inputChars,
    }
  }

  #emit(delegationId: string, events: NestedResponseEvent[]): void {
    for (const event of events) {
      this.#deps.send({ type: 'response.event', delegation_id: delegationId, event: { ...event } })
    }
  }
}

/** Tool outputs are JSON strings by convention; anything else is handed over as `{ output: <text> }`. */
export function parseToolOutput(output: string): JsonObject {
  try {
    const parsed: unknown = JSON.parse(output)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as JsonObject
  } catch {
    // not JSON: fall through
  }
  return { output }
}
