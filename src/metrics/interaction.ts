// Interaction metrics from voiced audio on one timeline (§4.2, metric contract v2). They come from speech intervals,
// never from transcripts or protocol events. A metric with no basis (no opportunity, no answer) is null, not 0.

import type { DurationSummary, MeasuredAudioMetrics } from '../reporting/result-schema.ts'
import { type Interval, subtractIntervals, totalDuration, unionIntervals } from './intervals.ts'
import {
  type CallerTurn,
  classifyOpportunities,
  exclusionReasonCounts,
  type OpportunityOutcome,
  opportunityCounts,
} from './response-opportunities.ts'
import { roundToFourPlaces, roundToPlaces } from './rounding.ts'

export type { DurationSummary, ExclusionReason, ResponseOpportunities } from '../reporting/result-schema.ts'
export type { CallerTurn, MissReason, OpportunityOutcome } from './response-opportunities.ts'

export const INTERACTION_METRICS_VERSION = '2.0'
export const DEFAULT_RESPONSE_DEADLINE_MS = 5_000

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

/** Measured interaction metrics: the row's `metrics.audio` with every contract-v2 field. */
export type InteractionMetrics = MeasuredAudioMetrics

/** The metrics and what became of each caller turn (sorted by start), for details and later per-turn reports. */
export interface InteractionAnalysis {
  metrics: InteractionMetrics
  caller_turns: readonly (CallerTurn & { outcome: OpportunityOutcome })[]
}

function durationSummary(pieces: readonly Interval[][]): DurationSummary {
  const perPiece = pieces.map((intervals) => totalDuration(intervals))
  return {
    cumulative: totalDuration(pieces.flat()),
    maximum: perPiece.length > 0 ? Math.max(...perPiece) : 0,
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

export function analyzeInteraction(timeline: InteractionTimeline): InteractionAnalysis {
  const deadlineMs = timeline.response_deadline_ms ?? DEFAULT_RESPONSE_DEADLINE_MS
  const assistantVoiced = unionIntervals(timeline.assistant_turns.flat())
  const onsets = assistantVoiced.map((voiced) => voiced.start_ms)
  const callerTurns = [...timeline.caller_turns].sort((a, b) => a.start_ms - b.start_ms)
  const outcomes = classifyOpportunities(
    callerTurns,
    assistantVoiced,
    deadlineMs,
    timeline.observation_end_ms,
  )
  const counts = opportunityCounts(outcomes)
  const latencies = outcomes.flatMap((outcome) => (outcome.status === 'answered' ? [outcome.latency_ms] : []))

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
  // The reference reports no speaking time or floor-hold silence when no caller turn opened an opportunity:
  // without a request there is no turn structure to measure them against.
  const observed = counts.caller_turn_count > 0

  const metrics: InteractionMetrics = {
    response_rate:
      counts.response_total === 0 ? null : roundToFourPlaces(counts.response_count / counts.response_total),
    response_latency_ms: latencies.length === 0 ? null : roundToPlaces(mean(latencies), 3),
    interruption_rate:
      counts.response_eligible_count === 0
        ? null
        : roundToFourPlaces(interruptions / counts.response_eligible_count),
    speaking_duration_ms: observed
      ? durationSummary(timeline.assistant_turns.map((turn) => [...turn]))
      : null,
    floor_hold_silence_ms: observed ? durationSummary(silentWhileDelegated.map((gap) => [gap])) : null,
    metrics_version: INTERACTION_METRICS_VERSION,
    response_deadline_ms: deadlineMs,
    response_opportunities: counts,
    response_exclusion_reasons: exclusionReasonCounts(outcomes),
  }
  return {
    metrics,
    caller_turns: callerTurns.map((turn, index) => ({
      ...turn,
      outcome: outcomes[index] as OpportunityOutcome,
    })),
  }
}

export function computeInteractionMetrics(timeline: InteractionTimeline): InteractionMetrics {
  return analyzeInteraction(timeline).metrics
}
