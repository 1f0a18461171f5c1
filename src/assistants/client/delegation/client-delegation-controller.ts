// Client delegation, in process: GPT-Live hands a request to the application (`session.delegation.created`,
// target client, no task text); the application runs its own backend over the conversation it has heard
// and answers with `session.commentary.append` carrying the delegation id, which the voice model speaks.
//
// The controller observes every Live event: transcripts go to the application's memory, a new client
// delegation starts a background task, and `session.commentary.appended` (matched by client_event_id)
// confirms that Live took a chunk. Work is pending from acceptance until its answer was sent and its
// completion published; failures are retained for wait(); close() is owned by the shared lifecycle.
import type { CommentaryAppendEvent } from 'openai/resources/live/live'
import { DelegationLifecycle, type DelegationWaitOptions, untilAborted } from '../../delegation-lifecycle.ts'
import {
  type ApplicationBackend,
  DELEGATED_TASK,
  type DelegationHandoff,
  type EmitObservation,
} from '../backend/application-backend.ts'
import { splitUtf8Chunks } from './commentary-chunks.ts'
import { TranscriptMemory } from './transcript-memory.ts'

/** A failure or cancellation of one client delegation, with the message the controller retains. */
export class ClientDelegationError extends Error {
  override name = 'ClientDelegationError'
  readonly delegationId: string | null

  constructor(message: string, delegationId: string | null, options?: ErrorOptions) {
    super(message, options)
    this.delegationId = delegationId
  }
}

/** The backend answered nothing the voice model could say. */
export class BlankAnswerError extends Error {
  override name = 'BlankAnswerError'
}

/** The Live session no longer accepts commands, so the answer could not be sent. */
export class LiveUnavailableError extends Error {
  override name = 'LiveUnavailableError'
}

/** Live answered a commentary chunk with an `error` instead of `session.commentary.appended`. */
export class CommentaryRejectedError extends Error {
  override name = 'CommentaryRejectedError'
}

/** The delegation did not finish within its deadline. */
export class DelegationDeadlineError extends Error {
  override name = 'DelegationDeadlineError'
}

export interface ClientDelegationControllerOptions {
  backend: ApplicationBackend
  /** Sends one event to GPT-Live; returns false when the session no longer accepts commands. */
  sendToLive: (event: CommentaryAppendEvent) => boolean
  /** Receives handoffs, backend observations, completions and failures (never sent to Live). */
  emit?: EmitObservation
  /** The session's `initial_items`, so the first handoff includes the conversation history. */
  initialItems?: readonly unknown[]
  /** A deadline per delegation in ms; in process the default is none (null). */
  deadlineMs?: number | null
  /**
   * What GPT-Live is given to say when the backend fails on a delegation (throws, answers blank, misses its
   * deadline); null says nothing. Default: BACKEND_FAILURE_ANSWER.
   */
  failureAnswer?: string | null
}

/**
 * Said for a delegation whose backend failed. Without any answer GPT-Live has only its own acknowledgement ("One
 * moment") and keeps the caller waiting for a result that will never come, until the call is given up. It names
 * no cause (the failure's class stays in the observation) and claims nothing about what the backend did before it
 * failed.
 */
export const BACKEND_FAILURE_ANSWER =
  "I'm sorry, I couldn't complete that request: our system isn't responding right now. Please try again later."

/** One commentary chunk sent to Live and what Live made of it. */
export interface CommentaryRecord {
  delegationId: string
  eventId: string
  content: string
  status: 'sent' | 'accepted' | 'rejected'
  /** The placement Live reported in `session.commentary.appended`; null until then. */
  startMs: number | null
  endMs: number | null
}

/**
 * Prefix of the commentary `event_id`s. The protocol only needs them unique within the session (they come back
 * as `client_event_id`); a counter keeps runs byte-identical, and the prefix keeps them apart from the ids
 * LiveSession gives its own commands (`evt_N`).
 */
export const COMMENTARY_EVENT_ID_PREFIX = 'commentary_'

export class ClientDelegationController {
  readonly memory = new TranscriptMemory()
  #commentarySent = 0
  readonly #backend: ApplicationBackend
  readonly #sendToLive: (event: CommentaryAppendEvent) => boolean
  readonly #emit: EmitObservation
  readonly #deadlineMs: number | null
  readonly #failureAnswer: string | null
  readonly #lifecycle = new DelegationLifecycle('client delegation')
  readonly #seen = new Set<string>()
  readonly #running = new Map<string, AbortController>()
  readonly #commentary = new Map<string, CommentaryRecord>()
  #closing: Promise<void> | null = null

  constructor(options: ClientDelegationControllerOptions) {
    this.#backend = options.backend
    this.#sendToLive = options.sendToLive
    this.#emit = options.emit ?? (() => {})
    const deadline = options.deadlineMs ?? null
    if (deadline !== null && !(Number.isFinite(deadline) && deadline > 0)) {
      throw new RangeError(
        `deadlineMs must be a finite positive number of milliseconds or null, got ${deadline}`,
      )
    }
    this.#deadlineMs = deadline
    this.#failureAnswer = options.failureAnswer === undefined ? BACKEND_FAILURE_ANSWER : options.failureAnswer
    this.memory.seedHistory(options.initialItems ?? [])
  }

  /** Delegations accepted whose answer has not been published yet. */
  get pending(): number {
    return this.#lifecycle.pending
  }

  /** The first retained failure, or null. */
  get error(): Error | null {
    return this.#lifecycle.error
  }

  /** Every client delegation id accepted so far, in order. */
  get delegationIds(): string[] {
    return [...this.#seen]
  }

  /** Whether this delegation's backend is still working (accepted, its answer not sent yet). */
  isRunning(delegationId: string): boolean {
    return this.#running.has(delegationId)
  }

  /** Every commentary chunk sent, in order, with its acceptance. */
  commentary(): CommentaryRecord[] {
    return [...this.#commentary.values()].map((record) => ({ ...record }))
  }

  /** Resolves when nothing is pending; rejects with the retained failure. Cancelling the wait keeps the work. */
  wait(options?: DelegationWaitOptions): Promise<void> {
    return this.#lifecycle.wait(options)
  }

  /** Feeds one event received from GPT-Live. */
  observe(event: unknown): void {
    this.memory.observe(event)
    if (typeof event !== 'object' || event === null) return
    const typed = event as { type?: unknown }
    if (typed.type === 'session.delegation.created') this.#onDelegation(event)
    else if (typed.type === 'session.commentary.appended') this.#onAppended(event)
    else if (typed.type === 'error') this.#onError(event)
  }

  /** Cancels one running delegation; its failure is retained as "Client delegation was cancelled". */
  cancel(delegationId: string): boolean {
    const running = this.#running.get(delegationId)
    if (running === undefined) return false
    running.abort(new ClientDelegationError('Client delegation was cancelled', delegationId))
    return true
  }

  /**
   * Stops accepting delegations, cancels and joins the running ones, then closes the backend (once).
   * Work cut short is retained as "Client delegation was cancelled during close". Idempotent; never rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown()
    return this.#closing
  }

  async #shutDown(): Promise<void> {
    for (const delegationId of this.#running.keys()) {
      const failure = new ClientDelegationError('Client delegation was cancelled during close', delegationId)
      this.#fail(failure, 'client_delegation_cancelled')
    }
    await this.#lifecycle.close()
    try {
      await this.#backend.close()
    } catch (error) {
      this.#lifecycle.fail(
        new ClientDelegationError(`Closing the client backend failed (${className(error)})`, null, {
          cause: error,
        }),
      )
    }
  }

  #onDelegation(event: object): void {
    const delegation = (event as { delegation?: unknown }).delegation
    if (typeof delegation !== 'object' || delegation === null) return
    const { id, target } = delegation as { id?: unknown; target?: unknown }
    // Responses delegations belong to GPT-Live's own backend; an id-less delegation cannot be answered.
    if (target !== 'client' || typeof id !== 'string' || id === '') return
    if (this.#seen.has(id) || this.#lifecycle.closed) return
    this.#seen.add(id)
    const handoff: DelegationHandoff = {
      task: DELEGATED_TASK,
      transcript_srt: this.memory.consumeSrt(),
      follow_up: this.#seen.size > 1,
    }
    const own = new AbortController()
    this.#running.set(id, own)
    this.#lifecycle.track(id, (closing) => this.#run(id, handoff, closing, own))
  }

  async #run(
    id: string,
    handoff: DelegationHandoff,
    closing: AbortSignal,
    own: AbortController,
  ): Promise<void> {
    const signal = AbortSignal.any([closing, own.signal])
    const deadline =
      this.#deadlineMs === null
        ? undefined
        : setTimeout(() => {
            own.abort(new DelegationDeadlineError(`no answer within ${this.#deadlineMs} ms`))
          }, this.#deadlineMs)
    try {
      this.#emit({ type: 'client_delegation.handoff', delegation_id: id, handoff: { ...handoff } })
      // A backend that keeps going after cancellation is no longer heard.
      const emit: EmitObservation = (observed) => {
        if (!signal.aborted) this.#emit({ ...observed, delegation_id: id })
      }
      const answer = await untilAborted(this.#backend.run(handoff, emit, { signal }), signal)
      if (typeof answer !== 'string' || answer.trim() === '') {
        throw new BlankAnswerError('the backend returned a blank answer')
      }
      for (const content of splitUtf8Chunks(answer)) this.#sendCommentary(id, content, signal)
      this.#emit({ type: 'client_delegation.completed', delegation_id: id, text: answer })
    } catch (error) {
      // Close owns the message for work it cut short (and the lifecycle ignores tasks it aborted).
      if (closing.aborted) throw error
      const cancelled = error instanceof ClientDelegationError && own.signal.reason === error
      const failure = cancelled
        ? error
        : new ClientDelegationError(`Client delegation failed (${className(error)})`, id, { cause: error })
      // Said before the failure is published: a remote service's connector stops relaying at the failure. A
      // cancelled delegation was called off on purpose; a session that takes no commentary cannot hear it.
      if (!cancelled && !(error instanceof LiveUnavailableError)) this.#tellFailure(id)
      this.#fail(failure, cancelled ? 'client_delegation_cancelled' : 'client_delegation_failed')
    } finally {
      clearTimeout(deadline)
      this.#running.delete(id)
    }
  }

  #sendCommentary(delegationId: string, content: string, signal?: AbortSignal): void {
    signal?.throwIfAborted()
    const eventId = `${COMMENTARY_EVENT_ID_PREFIX}${++this.#commentarySent}`
    const event: CommentaryAppendEvent = {
      type: 'session.commentary.append',
      event_id: eventId,
      delegation_id: delegationId,
      content,
    }
    this.#commentary.set(eventId, {
      delegationId,
      eventId,
      content,
      status: 'sent',
      startMs: null,
      endMs: null,
    })
    if (!this.#sendToLive(event)) {
      throw new LiveUnavailableError('the Live session no longer accepts commentary')
    }
  }

  /** Gives GPT-Live the failure answer for this delegation (best effort: the failure is already retained). */
  #tellFailure(delegationId: string): void {
    if (this.#failureAnswer === null) return
    try {
      for (const content of splitUtf8Chunks(this.#failureAnswer)) {
        this.#sendCommentary(delegationId, content)
      }
    } catch {
      // The session closed meanwhile: nobody is left to hear it.
    }
  }

  #onAppended(event: object): void {
    const { client_event_id, start_ms, end_ms } = event as Record<string, unknown>
    const record = typeof client_event_id === 'string' ? this.#commentary.get(client_event_id) : undefined
    if (record === undefined) return
    record.status = 'accepted'
    record.startMs = typeof start_ms === 'number' ? start_ms : null
    record.endMs = typeof end_ms === 'number' ? end_ms : null
  }

  /** Live refused one of our chunks: the caller will not hear that part of the answer. */
  #onError(event: object): void {
    const { client_event_id, error } = event as {
      client_event_id?: unknown
      error?: { client_event_id?: unknown }
    }
    const eventId = typeof client_event_id === 'string' ? client_event_id : error?.client_event_id
    const record = typeof eventId === 'string' ? this.#commentary.get(eventId) : undefined
    if (record === undefined || record.status === 'rejected') return
    record.status = 'rejected'
    const cause = new CommentaryRejectedError(`Live refused commentary ${record.eventId}`)
    const failure = new ClientDelegationError(
      `Client delegation failed (${cause.name})`,
      record.delegationId,
      {
        cause,
      },
    )
    this.#fail(failure, 'client_delegation_failed')
  }

  /** Retains a delegation's failure for wait() and publishes it as an `error` observation. */
  #fail(
    failure: ClientDelegationError,
    code: 'client_delegation_cancelled' | 'client_delegation_failed',
  ): void {
    this.#lifecycle.fail(failure)
    this.#emit({
      type: 'error',
      error: { code, message: failure.message },
      delegation_id: failure.delegationId,
    })
  }
}

/** The class of what was thrown, never its message (which may carry a backend's secrets or internals). */
function className(error: unknown): string {
  if (error instanceof Error) return error.constructor.name === 'Error' ? error.name : error.constructor.name
  return typeof error
}
