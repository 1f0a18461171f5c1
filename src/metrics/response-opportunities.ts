// Response opportunities (§4.2, metric contract v2): each caller turn is excluded (it asked for no answer), or it
// was answered, missed, or censored (observation ended before its deadline). Counted once here, read by both the
// row's denominators and the per-turn detail.

import type {
  ExclusionReason,
  ResponseExclusionReasons,
  ResponseOpportunities,
} from '../reporting/result-schema.ts'
import type { Interval } from './intervals.ts'

export interface CallerTurn extends Interval {
  /** Backchannels and closings (a STOP) do not ask for an answer. */
  kind: 'request' | 'backchannel' | 'closing'
}

export type MissReason = 'deadline_expired' | 'next_eligible_request'

/** What became of one caller turn; `latency_ms` is the first assistant onset after it, when one was observed. */
export type OpportunityOutcome =
  | { status: 'excluded'; reason: ExclusionReason }
  | { status: 'answered'; latency_ms: number }
  | { status: 'missed'; reason: MissReason; late_latency_ms: number | null }
  | { status: 'censored' }

function exclusionReason(turn: CallerTurn, assistantVoiced: readonly Interval[]): ExclusionReason | null {
  if (turn.kind === 'backchannel') return 'backchannel'
  if (turn.kind === 'closing') return 'caller_closing'
  // The assistant already holds the floor when the request ends: there is nothing to answer promptly.
  const active = assistantVoiced.some(
    (voiced) => voiced.start_ms < turn.end_ms && turn.end_ms <= voiced.end_ms,
  )
  return active ? 'assistant_active_at_request_end' : null
}

function classify(
  turn: CallerTurn,
  nextEligibleStartMs: number | null,
  onsets: readonly number[],
  deadlineMs: number,
  observationEndMs: number,
): OpportunityOutcome {
  const deadline = turn.end_ms + deadlineMs
  const beforeNextRequest = (time: number) => nextEligibleStartMs === null || time <= nextEligibleStartMs
  const onset = onsets.find((start) => start >= turn.end_ms && beforeNextRequest(start)) ?? null
  if (onset !== null && onset <= deadline) return { status: 'answered', latency_ms: onset - turn.end_ms }
  // A request exactly at the deadline does not pre-empt it: the deadline expired first.
  if (nextEligibleStartMs !== null && nextEligibleStartMs < deadline) {
    return { status: 'missed', reason: 'next_eligible_request', late_latency_ms: null }
  }
  if (observationEndMs < deadline) return { status: 'censored' }
  return {
    status: 'missed',
    reason: 'deadline_expired',
    late_latency_ms: onset === null ? null : onset - turn.end_ms,
  }
}

/**
 * One outcome per caller turn, in the order given (sorted by start).
 * @param assistantVoiced the assistant's voiced intervals, unioned and sorted
 */
export function classifyOpportunities(
  callerTurns: readonly CallerTurn[],
  assistantVoiced: readonly Interval[],
  deadlineMs: number,
  observationEndMs: number,
): OpportunityOutcome[] {
  const onsets = assistantVoiced.map((voiced) => voiced.start_ms)
  const exclusions = callerTurns.map((turn) => exclusionReason(turn, assistantVoiced))
  return callerTurns.map((turn, index): OpportunityOutcome => {
    const reason = exclusions[index] ?? null
    if (reason !== null) return { status: 'excluded', reason }
    const nextEligible = callerTurns.find(
      (other, otherIndex) =>
        otherIndex > index && exclusions[otherIndex] === null && other.start_ms >= turn.end_ms,
    )
    return classify(turn, nextEligible?.start_ms ?? null, onsets, deadlineMs, observationEndMs)
  })
}

/** The row's `response_opportunities`: exactly the reference's eight counts, in its order. */
export function opportunityCounts(outcomes: readonly OpportunityOutcome[]): ResponseOpportunities {
  const count = (status: OpportunityOutcome['status']) =>
    outcomes.filter((item) => item.status === status).length
  const answered = count('answered')
  const missed = count('missed')
  const censored = count('censored')
  const excluded = count('excluded')
  const late = outcomes.filter((item) => item.status === 'missed' && item.late_latency_ms !== null).length
  return {
    caller_turn_count: outcomes.length,
    response_eligible_count: outcomes.length - excluded,
    response_censored_count: censored,
    response_excluded_count: excluded,
    response_late_count: late,
    response_total: answered + missed,
    response_count: answered,
    no_response_count: missed,
  }
}

/** The row's `response_exclusion_reasons`: only reasons that occurred; `{}` when nothing was excluded. */
export function exclusionReasonCounts(outcomes: readonly OpportunityOutcome[]): ResponseExclusionReasons {
  const counts: ResponseExclusionReasons = {}
  for (const outcome of outcomes) {
    if (outcome.status === 'excluded') counts[outcome.reason] = (counts[outcome.reason] ?? 0) + 1
  }
  return counts
}
