// Interaction metrics from voiced audio on one timeline (§4.2, metric contract v2). They come from speech intervals,
// never from transcripts or protocol events. A metric with no basis (no opportunity, no answer) is null, not 0.

import { type Interval, subtractIntervals, totalDuration, unionIntervals } from './intervals.ts'

export const INTERACTION_METRICS_VERSION = '2.0'
export const DEFAULT_RESPONSE_DEADLINE_MS = 5_000

export interface CallerTurn extends Interval {
  /** Backchannels and closings (a STOP) do not ask for an answer. */
  kind: 'request' | 'backchannel' | 'closing'
}

export interface InteractionTimeline {
  caller_turns: readonly CallerTurn[]
  /** Voiced intervals of each assistant turn. */
  assistant_turns: readonly (readonly Interval[])[]
  /** When delegated work was active. */
  delegation_intervals: readonly Interval[]
  /** The end of observation: a request whose deadline lies beyond it is censored. */
  observation_end_ms: number
  response_deadline_ms?: number
}

export type ExclusionReason = 'backchannel' | 'caller_closing' | 'assistant_active_at_request_end'
export type MissReason = 'deadline_expired' | 'next_eligible_request'

// A type alias (not an interface) so it is assignable to the schema's record of counts.
export type ResponseOpportunities = {
  caller_turn_count: number
  response_eligible_count: number
  response_total: number
  response_count: number
  no_response_count: number
  response_censored_count: number
  response_excluded_count: number
  response_late_count: number
  deadline_expired_count: number
  next_eligible_request_count: number
}

export interface DurationSummary {
  cumulative: number | null
  maximum: number | null
}

export interface InteractionMetrics {
  response_rate: number | null
  response_latency_ms: number | null
  interruption_rate: number | null
  speaking_duration_ms: DurationSummary
  floor_hold_silence_ms: DurationSummary
  metrics_version: typeof INTERACTION_METRICS_VERSION
  response_deadline_ms: number
  response_opportunities: ResponseOpportunities | null
  response_exclusion_reasons: Record<ExclusionReason, number> | null
}

/** What an execution reports when its audio could not be measured: every metric unknown. */
export function unknownInteractionMetrics(deadlineMs = DEFAULT_RESPONSE_DEADLINE_MS): InteractionMetrics {
  return {
    response_rate: null,
    response_latency_ms: null,
    interruption_rate: null,
    speaking_duration_ms: { cumulative: null, maximum: null },
    floor_hold_silence_ms: { cumulative: null, maximum: null },
    metrics_version: INTERACTION_METRICS_VERSION,
    response_deadline_ms: deadlineMs,
    response_opportunities: null,
    response_exclusion_reasons: null,
  }
}

function exclusionReason(turn: CallerTurn, assistantVoiced: readonly Interval[]): ExclusionReason | null {
  if (turn.kind === 'backchannel') return 'backchannel'
  if (turn.kind === 'closing') return 'caller_closing'
  // The assistant already holds the floor when the request ends: there is nothing to answer promptly.
  const active = assistantVoiced.some(
    (voiced) => voiced.start_ms < turn.end_ms && turn.end_ms <= voiced.end_ms,
  )
  return active ? 'assistant_active_at_request_end' : null
}

type Classification =
  | { kind: 'answered'; latency_ms: number }
  | { kind: 'missed'; reason: MissReason; late: boolean }
  | { kind: 'censored' }

function classify(
  turn: CallerTurn,
  nextEligibleStartMs: number | null,
  onsets: readonly number[],
  deadlineMs: number,
  observationEndMs: number,
): Classification {
  const deadline = turn.end_ms + deadlineMs
  const onset = onsets.find((start) => start >= turn.end_ms) ?? null
  const beforeNextRequest = (time: number) => nextEligibleStartMs === null || time <= nextEligibleStartMs
  if (onset !== null && onset <= deadline && beforeNextRequest(onset)) {
    return { kind: 'answered', latency_ms: onset - turn.end_ms }
  }
  if (nextEligibleStartMs !== null && nextEligibleStartMs <= deadline) {
    return { kind: 'missed', reason: 'next_eligible_request', late: false }
  }
  if (observationEndMs < deadline) return { kind: 'censored' }
  const late = onset !== null && onset > deadline && beforeNextRequest(onset)
  return { kind: 'missed', reason: 'deadline_expired', late }
}

function durationSummary(pieces: readonly Interval[][]): DurationSummary {
  const perPiece = pieces.map((intervals) => totalDuration(intervals))
  return {
    cumulative: totalDuration(pieces.flat()),
    maximum: perPiece.length > 0 ? Math.max(...perPiece) : 0,
  }
}

export function computeInteractionMetrics(timeline: InteractionTimeline): InteractionMetrics {
  const deadlineMs = timeline.response_deadline_ms ?? DEFAULT_RESPONSE_DEADLINE_MS
  const assistantVoiced = unionIntervals(timeline.assistant_turns.flat())
  const onsets = assistantVoiced.map((voiced) => voiced.start_ms)
  const callerTurns = [...timeline.caller_turns].sort((a, b) => a.start_ms - b.start_ms)
  const exclusions = callerTurns.map((turn) => exclusionReason(turn, assistantVoiced))

  const exclusionCounts: Record<ExclusionReason, number> = {
    backchannel: 0,
    caller_closing: 0,
    assistant_active_at_request_end: 0,
  }
  const latencies: number[] = []
  let missedByDeadline = 0
  let missedByNextRequest = 0
  let censored = 0
  let late = 0
  callerTurns.forEach((turn, index) => {
    const reason = exclusions[index] ?? null
    if (reason !== null) {
      exclusionCounts[reason] += 1
      return
    }
    const nextEligible = callerTurns.find(
      (_other, otherIndex) => otherIndex > index && exclusions[otherIndex] === null,
    )
    const result = classify(
      turn,
      nextEligible?.start_ms ?? null,
      onsets,
      deadlineMs,
      timeline.observation_end_ms,
    )
    if (result.kind === 'answered') latencies.push(result.latency_ms)
    else if (result.kind === 'censored') censored += 1
    else {
      if (result.reason === 'deadline_expired') missedByDeadline += 1
      else missedByNextRequest += 1
      if (result.late) late += 1
    }
  })

  const answered = latencies.length
  const missed = missedByDeadline + missedByNextRequest
  const total = answered + missed
  const eligible = total + censored
  const excluded = Object.values(exclusionCounts).reduce((sum, count) => sum + count, 0)
  // Assistant onsets strictly inside a caller's voiced request: the assistant started talking over it.
  const interruptions = callerTurns
    .filter((turn) => turn.kind === 'request')
    .reduce(
      (sum, turn) => sum + onsets.filter((start) => start > turn.start_ms && start < turn.end_ms).length,
      0,
    )

  const delegated = unionIntervals(timeline.delegation_intervals)
  const silentWhileDelegated = subtractIntervals(delegated, [
    ...assistantVoiced,
    ...callerTurns.map(({ start_ms, end_ms }) => ({ start_ms, end_ms })),
  ])

  return {
    response_rate: total === 0 ? null : answered / total,
    response_latency_ms: answered === 0 ? null : latencies.reduce((sum, value) => sum + value, 0) / answered,
    interruption_rate: eligible === 0 ? null : interruptions / eligible,
    speaking_duration_ms: durationSummary(timeline.assistant_turns.map((turn) => [...turn])),
    floor_hold_silence_ms: durationSummary(silentWhileDelegated.map((gap) => [gap])),
    metrics_version: INTERACTION_METRICS_VERSION,
    response_deadline_ms: deadlineMs,
    response_opportunities: {
      caller_turn_count: eligible + excluded,
      response_eligible_count: eligible,
      response_total: total,
      response_count: answered,
      no_response_count: missed,
      response_censored_count: censored,
      response_excluded_count: excluded,
      response_late_count: late,
      deadline_expired_count: missedByDeadline,
      next_eligible_request_count: missedByNextRequest,
    },
    response_exclusion_reasons: exclusionCounts,
  }
}
