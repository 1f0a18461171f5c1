// Builders for live-driver tests: both sessions on the real offline GPT-Live server, on a virtual clock.
// The offline server cannot recognise speech, so each side's hearing is bridged from the other side's output
// captions (what it said, with its times on the media clock) through server.hear: the stand-in for ASR. The
// caller session is registered with a test behaviour that says scripted lines, one per thing it hears; once
// its lines are used up it stops listening (it has hung up in all but name).
import type { AssistantArchitecture } from '../../../assistants/architectures/index.ts'
import { models } from '../../../assistants/assistant-session.fixtures.ts'
import { registerOfflineAssistant } from '../../../assistants/assistant-session.ts'
import type { InferredToolCall, OfflineBehaviour } from '../../../assistants/offline-behaviour.ts'
import type { LiveSession } from '../../../live/index.ts'
import type { Scenario } from '../../../scenarios/scenario.ts'
import { assistantVisibleInput } from '../../../scenarios/visible.ts'
import type { FaultPlan, HeardUtterance, OfflineLiveServer } from '../../../testing/live-server/index.ts'
import {
  type ResponsesRequest,
  responsesRoute,
  structuredAnswer,
} from '../../../testing/responses-server/responses-route.ts'
import type { ResponsesServer } from '../../../testing/responses-server/server.ts'
import { callerBriefOf } from '../brief.ts'
import { ARCHITECTURES } from '../conversation.test-helpers.ts'
import { scriptedCallerLines } from '../offline-caller.ts'
import type { LiveConversationOptions } from './conversation.ts'
import {
  type CompletionDecision,
  type ObserverCallSettings,
  type ObserverInput,
  observerFactsOf,
} from './observer-call.ts'
import { DEFAULT_LIVE_RULES, type LiveCallRules } from './rules.ts'

/**
 * Turns one session's output captions into what another session hears. Captions are gathered into an
 * utterance until `quietMs` of the media clock passed after the last one and after the last of its audio
 * arrived (in real time a busy server's captions trail the clock, and its audio shows it is still talking);
 * then the whole utterance is heard at the times it was said.
 */
export class TranscriptBridge {
  readonly #server: Pick<OfflineLiveServer, 'hear'>
  readonly #token: string
  readonly #quietMs: number
  readonly #listening: () => boolean
  #pending: { text: string; startMs: number; endMs: number } | null = null
  #lastEndMs = 0
  /** Media clock time up to which the speaker's audio has arrived. */
  #audioUntilMs = 0
  readonly heard: HeardUtterance[] = []

  constructor(
    server: Pick<OfflineLiveServer, 'hear'>,
    token: string,
    quietMs: number,
    listening = () => true,
  ) {
    this.#server = server
    this.#token = token
    this.#quietMs = quietMs
    this.#listening = listening
  }

  attach(speaker: LiveSession): void {
    speaker.subscribe(({ event, receivedAtMs }) => {
      if (event.type === 'session.output_audio.delta') {
        // Base64 of PCM16 at 24 kHz: 4 characters carry 3 bytes, 48 bytes a millisecond.
        this.#audioUntilMs = Math.max(this.#audioUntilMs, receivedAtMs + (event.delta.length * 3) / 4 / 48)
        return
      }
      if (event.type !== 'session.output_transcript.delta') return
      const pending = this.#pending
      if (pending !== null && event.start_ms - pending.endMs < this.#quietMs) {
        // A new run of captions after a pause starts without a space of its own.
        pending.text +=
          event.start_ms > pending.endMs && !/^\s/.test(event.delta) ? ` ${event.delta}` : event.delta
        pending.endMs = Math.max(pending.endMs, event.end_ms)
        return
      }
      this.#flush()
      this.#pending = { text: event.delta, startMs: event.start_ms, endMs: event.end_ms }
    })
  }

  afterStep(nowMs: number): void {
    const pending = this.#pending
    if (pending !== null && nowMs - Math.max(pending.endMs, this.#audioUntilMs) >= this.#quietMs)
      this.#flush()
  }

  #flush(): void {
    const pending = this.#pending
    this.#pending = null
    if (pending === null || !this.#listening()) return
    const text = pending.text.trim()
    const startMs = Math.max(Math.round(pending.startMs), this.#lastEndMs)
    const endMs = Math.round(pending.endMs)
    if (text === '' || endMs <= startMs) return
    const utterance = { text, startMs, endMs }
    this.#server.hear(this.#token, utterance)
    this.heard.push(utterance)
    this.#lastEndMs = endMs
  }
}

/** A caller voice model that answers whatever it hears with its next scripted line. */
export function scriptedCaller(
  lines: readonly string[],
  delegateOn: (line: string) => InferredToolCall | null = () => null,
): { behaviour: OfflineBehaviour; exhausted: () => boolean; said: string[] } {
  const said: string[] = []
  let next = 0
  const lineFor = () => lines[Math.min(next, lines.length - 1)] ?? 'Okay.'
  return {
    said,
    exhausted: () => next >= lines.length,
    behaviour: {
      inferToolCall: () => {
        const call = delegateOn(lineFor())
        if (call !== null) next += 1
        return call
      },
      directAnswer: () => {
        const line = lineFor()
        next += 1
        said.push(line)
        return line
      },
      finalAnswer: () => lineFor(),
    },
  }
}

export interface OfflineLiveCallOptions {
  architecture?: keyof typeof ARCHITECTURES
  assistantFirstPrompt?: string | null
  /** The caller's lines after its opening (default: the scenario's agenda hints and goodbye). */
  callerLines?: readonly string[]
  callerDelegatesOn?: (line: string) => InferredToolCall | null
  callerHearing?: HeardUtterance[]
  callerFaults?: FaultPlan
  assistantFaults?: FaultPlan
  callerBackend?: LiveConversationOptions['callerBackend']
  /** The assistant's GPT-Live model (default the fixtures' gpt-live-1). */
  assistantModel?: string
  /** The caller's GPT-Live model (default gpt-live-1). */
  callerModel?: string
  observer?: ObserverCallSettings | null
  rules?: Partial<LiveCallRules>
  condition?: string
  tickMs?: number
}

let callerSessions = 0

export interface OfflineLiveCall {
  options: LiveConversationOptions
  architecture: AssistantArchitecture
  caller: ReturnType<typeof scriptedCaller>
  bridges: { toAssistant: TranscriptBridge; toCaller: TranscriptBridge }
}

/** Everything runLiveConversation needs to play `scenario` with both sessions on the offline server. */
export function offlineLiveCall(
  server: OfflineLiveServer,
  scenario: Scenario,
  choices: OfflineLiveCallOptions = {},
): OfflineLiveCall {
  const architecture = ARCHITECTURES[choices.architecture ?? 'responses']()
  const visibleInput = assistantVisibleInput(scenario)
  const parameters = scenario.simulation_parameters
  if (parameters === null) throw new Error(`${scenario.id} has no simulation parameters`)
  const assistantFirstPrompt = choices.assistantFirstPrompt ?? null
  const scripted = scriptedCallerLines(parameters, scenario.input.text).map((line) => line.text)
  const lines = choices.callerLines ?? (assistantFirstPrompt === null ? scripted.slice(1) : scripted)
  const caller = scriptedCaller(lines, choices.callerDelegatesOn)
  const assistantToken = registerOfflineAssistant(server, visibleInput, architecture, [], {
    ...(choices.assistantFaults === undefined ? {} : { faults: choices.assistantFaults }),
  })
  callerSessions += 1
  const callerToken = `offline-caller-${scenario.id}-${callerSessions}`
  server.registerSession(callerToken, {
    hearing: choices.callerHearing ?? [],
    behaviour: caller.behaviour,
    ...(choices.callerFaults === undefined ? {} : { faults: choices.callerFaults }),
  })
  const bridges = {
    toAssistant: new TranscriptBridge(server, assistantToken, 300),
    // A caller takes "One moment." and the answer after it as one turn: it waits for a real pause.
    toCaller: new TranscriptBridge(server, callerToken, 1_000, () => !caller.exhausted()),
  }
  const connection = (apiKey: string) => ({ apiKey, baseURL: server.baseURL, allowInsecureLoopback: true })
  const options: LiveConversationOptions = {
    visibleInput,
    architecture,
    application: architecture.createApplication(visibleInput),
    models: { ...models, liveModel: choices.assistantModel ?? models.liveModel },
    callerModel: choices.callerModel ?? 'gpt-live-1',
    brief: callerBriefOf(scenario, assistantFirstPrompt === null ? 'caller' : 'assistant'),
    callerBackend:
      choices.callerBackend === undefined
        ? { model: 'gpt-5.6-luna', reasoningEffort: 'low' }
        : choices.callerBackend,
    connections: { assistant: connection(assistantToken), caller: connection(callerToken) },
    observerFacts: observerFactsOf(scenario),
    backchannels: parameters.persona.backchannels,
    clock: { mode: 'virtual', tickMs: choices.tickMs ?? 100 },
    preset: { condition: choices.condition ?? 'clean', seed: 7 },
    assistantFirstPrompt,
    rules: { ...DEFAULT_LIVE_RULES, ...choices.rules },
    observer: choices.observer ?? null,
    hooks: {
      sessionsStarted: ({ assistant, caller: callerSession }) => {
        bridges.toAssistant.attach(callerSession)
        bridges.toCaller.attach(assistant.session)
      },
      afterStep: (nowMs) => {
        bridges.toAssistant.afterStep(nowMs)
        bridges.toCaller.afterStep(nowMs)
      },
    },
  }
  return { options, architecture, caller, bridges }
}

/** The observer input a request to the fake Responses server carried (its user message is the JSON). */
export function observerInputOf(request: { body: unknown }): ObserverInput {
  const input = (request.body as ResponsesRequest).input
  const user = Array.isArray(input) ? input.find((item) => item.role === 'user') : undefined
  return JSON.parse(typeof user?.content === 'string' ? user.content : '{}') as ObserverInput
}

/** Makes the fake Responses server answer every observer request with `decide(its input)`. */
export function answerObserver(
  server: ResponsesServer,
  decide: (input: ObserverInput) => CompletionDecision,
): void {
  server.route(
    'POST',
    '/v1/responses',
    responsesRoute({ respond: (request) => structuredAnswer(decide(observerInputOf({ body: request }))) }),
  )
}
