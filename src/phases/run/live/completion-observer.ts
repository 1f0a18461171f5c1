// When the completion observer is asked, and which of its answers count (§6). It is asked only once the call
// has substance (two caller utterances, one assistant turn) and only about current evidence (nobody talking,
// nothing buffered or waiting for a caption, the caller's backend idle); assessments start at least 500 ms
// apart, and evidence that has not changed is asked about again after 5 s only if it was unresolved (a change
// of the assistant's pending work is a change: the observer reads it). An answer counts only if the evidence it
// was given is still the evidence now (same revision, same latest speech on both sides); a "drain" is
// downgraded to unresolved while delegated work runs, while the evidence is not current, or when it claims "resolved" while a stated expected state is not verified. The first error or
// timeout switches the call for good to the fallback policy (verified outcome and a natural closing).
import type { CompletionSignal } from '../drain.ts'
import type { CompletionDecision, ObserverInput } from './observer-call.ts'

export interface EvidenceMoment {
  nowMs: number
  /** Bumped by every change of the evidence (a caption, a tool result). */
  revision: number
  lastCallerSpeechMs: number | null
  lastAssistantSpeechMs: number | null
  current: boolean
  callerUtterances: number
  assistantTurns: number
  delegationActive: boolean
  /** The scenario states an expected application state. */
  expectsState: boolean
  stateVerified: boolean
}

export interface ObserverRules {
  spacingMs: number
  recheckMs: number
}

export const DEFAULT_OBSERVER_RULES: ObserverRules = { spacingMs: 500, recheckMs: 5_000 }

/** What became of one assessment; the details JSON can keep the list. */
export interface AssessmentRecord {
  started_ms: number
  revision: number
  applied_ms: number | null
  decision: CompletionDecision | null
  /**
   * signal: it started a drain; unresolved; downgraded: a drain refused by §6's rules; stale; error; abandoned:
   * the call ended before the answer came.
   */
  result: 'signal' | 'unresolved' | 'downgraded' | 'stale' | 'error' | 'pending' | 'abandoned'
  error: string | null
}

type Assess = (input: ObserverInput) => Promise<CompletionDecision>

export class CompletionObserver {
  readonly #assess: Assess
  readonly #rules: ObserverRules
  readonly records: AssessmentRecord[] = []
  #inFlight: { moment: EvidenceMoment; record: AssessmentRecord } | null = null
  #answered: { moment: EvidenceMoment; record: AssessmentRecord; decision: CompletionDecision } | null = null
  #lastStartMs: number | null = null
  #lastRevision: number | null = null
  /** Whether the assistant's work was pending in the last assessment's evidence (it is part of the input). */
  #lastWorkPending: boolean | null = null
  #lastUnresolved = false
  #failure: string | null = null
  #closed = false

  constructor(assess: Assess, rules: ObserverRules = DEFAULT_OBSERVER_RULES) {
    this.#assess = assess
    this.#rules = rules
  }

  /** Set after the first error or timeout: the fallback policy applies from then on. */
  get failure(): string | null {
    return this.#failure
  }

  get busy(): boolean {
    return this.#inFlight !== null
  }

  /**
   * Called every tick. Starts an assessment when §6 allows one and returns its settlement (the virtual clock
   * waits for it, so a run is reproducible); null when nothing was started.
   */
  consider(moment: EvidenceMoment, input: () => ObserverInput): Promise<void> | null {
    if (this.#closed || this.#failure !== null || this.#inFlight !== null || this.#answered !== null)
      return null
    if (moment.callerUtterances < 2 || moment.assistantTurns < 1 || !moment.current) return null
    const sinceStart =
      this.#lastStartMs === null ? Number.POSITIVE_INFINITY : moment.nowMs - this.#lastStartMs
    if (sinceStart < this.#rules.spacingMs) return null
    // The observer reads whether work is pending, so that changing alone is new evidence.
    const changed =
      moment.revision !== this.#lastRevision || moment.delegationActive !== this.#lastWorkPending
    if (!changed && !(this.#lastUnresolved && sinceStart >= this.#rules.recheckMs)) return null
    const record: AssessmentRecord = {
      started_ms: moment.nowMs,
      revision: moment.revision,
      applied_ms: null,
      decision: null,
      result: 'pending',
      error: null,
    }
    this.records.push(record)
    this.#lastStartMs = moment.nowMs
    this.#lastRevision = moment.revision
    this.#lastWorkPending = moment.delegationActive
    const flight = { moment, record }
    this.#inFlight = flight
    return this.#assess(input()).then(
      (decision) => {
        this.#inFlight = null
        if (this.#closed) return
        record.decision = decision
        this.#answered = { ...flight, decision }
      },
      (error: unknown) => {
        this.#inFlight = null
        if (this.#closed) return
        record.result = 'error'
        record.error = error instanceof Error ? error.message : String(error)
        this.#failure = record.error
      },
    )
  }

  /** The call is over: an assessment still in flight is abandoned, and nothing is started or applied any more. */
  close(): void {
    this.#closed = true
    this.#answered = null
    if (this.#inFlight !== null) this.#inFlight.record.result = 'abandoned'
  }

  /** Applies an answer that arrived, against the evidence now: the signal it gives, or null. */
  takeSignal(now: EvidenceMoment): CompletionSignal | null {
    const answered = this.#answered
    if (answered === null) return null
    this.#answered = null
    const { moment, record, decision } = answered
    record.applied_ms = now.nowMs
    const stale =
      now.revision !== moment.revision ||
      now.lastCallerSpeechMs !== moment.lastCallerSpeechMs ||
      now.lastAssistantSpeechMs !== moment.lastAssistantSpeechMs
    if (stale) {
      record.result = 'stale'
      // The evidence moved on; the next current moment gets a fresh assessment.
      this.#lastUnresolved = true
      return null
    }
    const drains = decision.should_drain && decision.outcome !== 'unresolved'
    const downgraded =
      drains &&
      (now.delegationActive ||
        !now.current ||
        (decision.outcome === 'resolved' && now.expectsState && !now.stateVerified))
    if (!drains || downgraded) {
      record.result = downgraded ? 'downgraded' : 'unresolved'
      this.#lastUnresolved = true
      return null
    }
    record.result = 'signal'
    this.#lastUnresolved = false
    return decision.outcome === 'resolved'
      ? 'semantic_conversation_resolved'
      : 'semantic_conversation_refused'
  }
}
