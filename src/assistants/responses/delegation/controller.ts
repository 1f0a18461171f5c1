// Responses delegation, client side. GPT-Live runs the delegated Responses model itself; we only watch its
// nested `response.event` stream, run the function calls it asks for against this scenario's tool runtime,
// and hand the results back. The rules the reference pins down:
// - a tool runs only for a `response.output_item.done` whose item is a `function_call` with status
//   `completed` (the arguments-done event lacks name/call_id and is only an observation);
// - each call_id runs once, however often it is delivered;
// - tools never run inside the receive loop (the runtime starts them on a later tick);
// - once the response that asked is `response.completed` and every call returned, each output goes back as a
//   `response.item.create` (`function_call_output`, JSON string), followed by exactly one `response.create`.
// A round whose response ends failed/incomplete/cancelled is abandoned by not continuing it (GPT-Live has no
// cancel command). Everything seen is recorded for the observation.
import type { ReceivedLiveEvent } from '../../../live/events.ts'
import type { LiveSession } from '../../../live/session.ts'
import { DelegationLifecycle, type DelegationWaitOptions, untilAborted } from '../../delegation-lifecycle.ts'
import type { ToolCallResult, ToolRuntime } from '../../runtime/tool-runtime.ts'
import { type FunctionCallItem, observeNestedEvent, type TerminalResponseEventType } from './nested-events.ts'
import type {
  BackendMessageRecord,
  BackendUsageRecord,
  RequestedCallRecord,
  ResponsesDelegationObservation,
  ResponsesDelegationRecord,
  ResultPublication,
} from './records.ts'

/** What the controller needs from the live session: its event feed and sending. `LiveSession` is one. */
export type LiveEventChannel = Pick<LiveSession, 'subscribe' | 'send'>

interface Round {
  responseId: string
  delegationId: string | null
  /** Accepted calls in acceptance order; each resolves with the tool's output. */
  calls: Map<string, Promise<ToolCallResult>>
  terminal: Promise<TerminalResponseEventType>
  finish: (type: TerminalResponseEventType) => void
  tracked: boolean
}

export class ResponsesDelegationController {
  readonly #channel: LiveEventChannel
  readonly #runtime: ToolRuntime
  readonly #lifecycle = new DelegationLifecycle('responses delegation')
  readonly #unsubscribe: () => void
  readonly #clock: () => number
  readonly #delegations = new Map<string, ResponsesDelegationRecord>()
  readonly #requested: RequestedCallRecord[] = []
  readonly #usage: BackendUsageRecord[] = []
  readonly #messages: BackendMessageRecord[] = []
  readonly #publications: ResultPublication[] = []
  readonly #rounds = new Map<string, Round>()
  /** The response most recently created under each delegation: item events do not name their response. */
  readonly #currentResponse = new Map<string | null, string>()
  readonly #seenCallIds = new Set<string>()
  #argumentsDone = 0

  /** `clock` is the session clock (milliseconds) that stamps publications; use the LiveSession's. */
  constructor(channel: LiveEventChannel, runtime: ToolRuntime, options: { clock?: () => number } = {}) {
    this.#channel = channel
    this.#runtime = runtime
    this.#clock = options.clock ?? (() => performance.now())
    this.#unsubscribe = channel.subscribe((received) => this.#receive(received))
  }

  /** Rounds accepted and not yet published (or given up). */
  get pending(): number {
    return this.#lifecycle.pending
  }

  /** The retained lifecycle error wait() rejects with, or null. */
  get error(): Error | null {
    return this.#lifecycle.error
  }

  /** Resolves when no round is pending; rejects with the retained lifecycle error (e.g. an executor crash). */
  wait(options?: DelegationWaitOptions): Promise<void> {
    return this.#lifecycle.wait(options)
  }

  /** Stops watching the session, abandons and joins pending rounds, wakes waiters. Idempotent. */
  close(): Promise<void> {
    this.#unsubscribe()
    return this.#lifecycle.close()
  }

  /**
   * Whether the backend is done with `delegationId`: its response ended and any tool calls it made were
   * published. Work is tracked only from the first function call, so an idle controller alone does not mean it.
   * Read from the records themselves: the call loops ask every step, and observation() copies everything.
   */
  delegationFinished(delegationId: string): boolean {
    const responded = this.#usage.some((usage) => usage.delegationId === delegationId)
    const ranTools = this.#requested.some((call) => call.delegationId === delegationId && call.executed)
    const published = this.#publications.some((publication) => publication.delegationId === delegationId)
    return responded && (!ranTools || published)
  }

  /** Everything recorded so far (copies). Tool executions themselves come from the runtime. */
  observation(): ResponsesDelegationObservation {
    return structuredClone({
      delegations: [...this.#delegations.values()],
      requestedCalls: this.#requested,
      backendUsage: this.#usage,
      backendMessages: this.#messages,
      publications: this.#publications,
      argumentsDoneEvents: this.#argumentsDone,
    })
  }

  #receive({ event, receivedAtMs }: ReceivedLiveEvent): void {
    if (event.type === 'session.delegation.created') {
      if (event.delegation.target !== 'responses') return
      this.#delegations.set(event.delegation.id, {
        delegationId: event.delegation.id,
        offsetMs: event.offset_ms,
        receivedAtMs,
        responseIds: [],
      })
      return
    }
    if (event.type !== 'response.event') return
    const delegationId = event.delegation_id ?? null
    const observed = observeNestedEvent(event.event)
    switch (observed.kind) {
      case 'created':
        this.#currentResponse.set(delegationId, observed.responseId)
        if (delegationId !== null) this.#delegations.get(delegationId)?.responseIds.push(observed.responseId)
        this.#round(observed.responseId, delegationId)
        return
      case 'terminal':
        this.#usage.push({
          delegationId,
          responseId: observed.responseId,
          terminal: observed.type,
          usage: observed.usage,
          receivedAtMs,
        })
        this.#round(observed.responseId, delegationId).finish(observed.type)
        return
      case 'function_call':
        this.#functionCall(observed.item, delegationId, receivedAtMs)
        return
      case 'message':
        this.#messages.push({ delegationId, text: observed.text, receivedAtMs })
        return
      case 'malformed_function_call':
        this.#requested.push({
          delegationId,
          responseId: this.#currentResponse.get(delegationId) ?? null,
          callId: typeof observed.item.call_id === 'string' ? observed.item.call_id : null,
          name: typeof observed.item.name === 'string' ? observed.item.name : null,
          arguments: observed.item.arguments ?? null,
          status: typeof observed.item.status === 'string' ? observed.item.status : null,
          receivedAtMs,
          executed: false,
          skipped: 'malformed_item',
        })
        return
      case 'arguments_done':
        this.#argumentsDone += 1
        return
      case 'other':
        return
    }
  }

  #functionCall(item: FunctionCallItem, delegationId: string | null, receivedAtMs: number): void {
    const responseId = this.#currentResponse.get(delegationId) ?? null
    const skipped =
      item.status !== 'completed'
        ? 'status_not_completed'
        : this.#seenCallIds.has(item.call_id)
          ? 'duplicate_call_id'
          : null
    const record: RequestedCallRecord = {
      delegationId,
      responseId,
      callId: item.call_id,
      name: item.name,
      arguments: item.arguments,
      status: item.status ?? null,
      receivedAtMs,
      executed: false,
      skipped,
    }
    this.#requested.push(record)
    // A closed controller runs nothing: its results could never be published.
    if (skipped !== null || this.#lifecycle.closed) return
    this.#seenCallIds.add(item.call_id)
    record.executed = true
    // Without a response.created we still run the call; its round just never completes, so nothing is sent.
    const round = this.#round(responseId ?? `(unannounced response of ${delegationId})`, delegationId)
    round.calls.set(
      item.call_id,
      this.#runtime.run({ callId: item.call_id, name: item.name, arguments: item.arguments }),
    )
    if (!round.tracked) {
      round.tracked = true
      this.#lifecycle.track(`response ${round.responseId}`, (signal) => this.#publishWhenReady(round, signal))
    }
  }

  #round(responseId: string, delegationId: string | null): Round {
    const existing = this.#rounds.get(responseId)
    if (existing !== undefined) return existing
    let finish!: (type: TerminalResponseEventType) => void
    const terminal = new Promise<TerminalResponseEventType>((resolve) => {
      finish = resolve
    })
    const round: Round = { responseId, delegationId, calls: new Map(), terminal, finish, tracked: false }
    this.#rounds.set(responseId, round)
    return round
  }

  async #publishWhenReady(round: Round, signal: AbortSignal): Promise<void> {
    const end = (outcome: ResultPublication['outcome'], callIds: string[], atMs: number) =>
      this.#publications.push({
        delegationId: round.delegationId,
        responseId: round.responseId,
        callIds,
        outcome,
        atMs,
      })
    let terminal: TerminalResponseEventType
    let results: ToolCallResult[]
    try {
      // Calls are added until the response ends, so wait for the end before collecting them.
      terminal = await untilAborted(round.terminal, signal)
      results = await untilAborted(Promise.all(round.calls.values()), signal)
    } catch (error) {
      if (signal.aborted) end('session_ended', [], this.#clock())
      throw error
    }
    if (terminal !== 'response.completed') {
      end('response_not_completed', [], this.#clock())
      return
    }
    const sentCallIds: string[] = []
    for (const result of results) {
      const callId = result.record.call_id ?? ''
      const sent = this.#channel.send({
        type: 'response.item.create',
        item: { type: 'function_call_output', call_id: callId, output: result.outputJson },
      })
      if (sent === null) return void end('session_ended', sentCallIds, this.#clock())
      sentCallIds.push(callId)
    }
    const continued = this.#channel.send({ type: 'response.create' })
    if (continued === null) return void end('session_ended', sentCallIds, this.#clock())
    end('published', sentCallIds, continued.sentAtMs)
  }
}
