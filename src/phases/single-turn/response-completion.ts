// When a single-turn response is complete (reference §4.4). GPT-Live has no "turn done" or "audio done" event,
// so completion is inferred from timeline facts: the caller finished, delegated work finished and its result
// was published, the assistant then started a NEW voiced episode, and a quiet tail followed. This module is
// pure: the collector feeds it facts stamped on the session clock and asks it for a decision.

/** Quiet time after the last assistant speech or caption before a response counts as finished. */
export const QUIET_TAIL_MS = 600

export type CompletionDecision =
  | { state: 'waiting'; waitingFor: CompletionRequirement }
  | { state: 'completed'; atMs: number }
  | { state: 'timed_out'; atMs: number }

export type CompletionRequirement =
  | 'caller_input'
  | 'delegated_work'
  | 'result_publication'
  | 'voiced_response'
  | 'quiet_tail'

export interface ResponseCompletionOptions {
  /** Counted from the end of caller input and never restarted. */
  responseTimeoutMs: number
  quietTailMs?: number
}

/**
 * Tracks one single-turn response. Facts must be fed in session-clock order; `decide(nowMs)` is a pure
 * function of the facts so far and the time.
 */
export class ResponseCompletionTracker {
  readonly #timeoutMs: number
  readonly #quietTailMs: number
  #callerInputEndMs: number | null = null
  /** Delegations accepted and not yet settled (result published or failed). */
  readonly #openDelegations = new Set<string>()
  readonly #seenDelegations = new Set<string>()
  /** When the latest delegated result became available to the caller (publication). */
  #resultAvailableMs: number | null = null
  /** Start of the first voiced assistant audio at or after the result became available. */
  #answerOnsetMs: number | null = null
  /** End of the latest assistant speech (voiced audio) or caption. */
  #lastAssistantActivityMs: number | null = null
  /** End of the latest voiced assistant audio: a chunk starting later begins a new episode. */
  #lastVoicedEndMs: number | null = null

  constructor(options: ResponseCompletionOptions) {
    if (!(options.responseTimeoutMs > 0)) {
      throw new RangeError(`responseTimeoutMs must be positive, got ${options.responseTimeoutMs}`)
    }
    this.#timeoutMs = options.responseTimeoutMs
    this.#quietTailMs = options.quietTailMs ?? QUIET_TAIL_MS
  }

  /** The caller's request audio (including its trailing silence) has been sent completely. */
  callerInputEnded(atMs: number): void {
    this.#callerInputEndMs ??= atMs
  }

  /** The assistant handed work to its backend (`session.delegation.created`). Repeated ids count once. */
  delegationStarted(delegationId: string): void {
    if (this.#seenDelegations.has(delegationId)) return
    this.#seenDelegations.add(delegationId)
    this.#openDelegations.add(delegationId)
    // A new delegation makes any earlier answer provisional: the caller must hear the new result.
    this.#resultAvailableMs = null
    this.#answerOnsetMs = null
  }

  /**
   * The delegation's result was published to the voice model (Responses: outputs sent and a response
   * requested; client: the correlated commentary acknowledged), or the delegation ended without one.
   */
  delegationSettled(delegationId: string, atMs: number): void {
    if (!this.#openDelegations.delete(delegationId)) return
    if (this.#openDelegations.size === 0) {
      this.#resultAvailableMs = atMs
      this.#answerOnsetMs = null
    }
  }

  /** Assistant output audio placed on the session clock; only voiced audio is speech. */
  assistantAudio(startMs: number, endMs: number, voiced: boolean): void {
    if (!voiced) return
    // Audio that continues an episode already under way (an acknowledgement) is not a new answer.
    const beginsEpisode = this.#lastVoicedEndMs === null || startMs > this.#lastVoicedEndMs
    this.#lastVoicedEndMs = Math.max(this.#lastVoicedEndMs ?? endMs, endMs)
    this.#lastAssistantActivityMs = Math.max(this.#lastAssistantActivityMs ?? endMs, endMs)
    const since = this.#answerWindowStartMs()
    if (this.#answerOnsetMs === null && beginsEpisode && since !== null && startMs >= since) {
      this.#answerOnsetMs = startMs
    }
  }

  /** An output caption arrived; it delays the quiet tail but is never an answer by itself. */
  assistantCaption(atMs: number): void {
    this.#lastAssistantActivityMs = Math.max(this.#lastAssistantActivityMs ?? atMs, atMs)
  }

  decide(nowMs: number): CompletionDecision {
    const completion = this.#completionState(nowMs)
    if (completion.state === 'completed') return completion
    if (this.#callerInputEndMs !== null && nowMs >= this.#callerInputEndMs + this.#timeoutMs) {
      return { state: 'timed_out', atMs: nowMs }
    }
    return completion
  }

  /** When the answer window opens: the result's availability, or the end of input when nothing was delegated. */
  #answerWindowStartMs(): number | null {
    if (this.#openDelegations.size > 0) return null
    if (this.#seenDelegations.size > 0) return this.#resultAvailableMs
    return this.#callerInputEndMs
  }

  #completionState(nowMs: number): CompletionDecision {
    if (this.#callerInputEndMs === null) return { state: 'waiting', waitingFor: 'caller_input' }
    if (this.#openDelegations.size > 0) return { state: 'waiting', waitingFor: 'delegated_work' }
    if (this.#seenDelegations.size > 0 && this.#resultAvailableMs === null) {
      return { state: 'waiting', waitingFor: 'result_publication' }
    }
    if (this.#answerOnsetMs === null) return { state: 'waiting', waitingFor: 'voiced_response' }
    const lastActivity = this.#lastAssistantActivityMs ?? this.#answerOnsetMs
    if (nowMs < lastActivity + this.#quietTailMs) return { state: 'waiting', waitingFor: 'quiet_tail' }
    return { state: 'completed', atMs: nowMs }
  }
}
