// RUN turn metrics beyond the reference (issue 13), from the one timeline:
// - yield: for each caller barge-in cue, whether the assistant stopped talking and how fast. A cue that lands
//   while the assistant is quiet is *unexercised*, not a pass: the assistant must have been voiced for at least
//   300 ms in the second before the cue for there to be anything to yield.
// - time to verified answer (defined in metrics/verified-answer.ts): from the end of a caller request to the first
//   assistant audio after the tool result that answers it (tool turns), or to the first (non-tool turns).
// Scheduled interventions (interventions/) are measured with the same rule; bargeInYields merges them with the
// cues found after the fact without counting one twice.
// The row extension feature `run_turns` (reporting/extensions/run-turns.ts) carries them; its zod schema is the shape.
import { type Interval, unionIntervals } from '../../metrics/intervals.ts'
import type { VerifiedAnswer } from '../../metrics/verified-answer.ts'
import { type RunTurnMetrics, RunTurnMetricsSchema } from '../../reporting/extensions/run-turns.ts'
import type { InterventionOutcome } from './interventions/outcomes.ts'

// Defined in src/metrics (the delegation latency split reads it too); re-exported for RUN's callers.
export { type TurnWindowWork, type VerifiedAnswer, verifiedAnswers } from '../../metrics/verified-answer.ts'
export type { RunTurnMetrics }

/** The assistant must have spoken this much in the second before a cue for the cue to test anything. */
export const EXERCISED_VOICED_MS = 300
const EXERCISE_LOOKBACK_MS = 1_000
/** An assistant still talking this long after the cue did not yield. */
export const YIELD_WINDOW_MS = 2_000

export interface YieldOutcome {
  /** null for a scheduled barge-in that was never said (it counts as unexercised). */
  cue_ms: number | null
  exercised: boolean
  /** null when unexercised. */
  yielded: boolean | null
  /** From the cue to the end of the assistant's voice; null when unexercised or not yielded. */
  yield_latency_ms: number | null
}

function voicedWithin(voiced: readonly Interval[], from: number, to: number): number {
  return voiced.reduce(
    (sum, interval) => sum + Math.max(0, Math.min(to, interval.end_ms) - Math.max(from, interval.start_ms)),
    0,
  )
}

export function yieldOutcomes(cues: readonly number[], assistantVoiced: readonly Interval[]): YieldOutcome[] {
  const voiced = unionIntervals(assistantVoiced)
  return cues.map((cue) => {
    const exercised = voicedWithin(voiced, cue - EXERCISE_LOOKBACK_MS, cue) >= EXERCISED_VOICED_MS
    if (!exercised) return { cue_ms: cue, exercised, yielded: null, yield_latency_ms: null }
    const talking = voiced.find((interval) => interval.start_ms <= cue && cue < interval.end_ms)
    const latency = talking === undefined ? 0 : talking.end_ms - cue
    const yielded = latency <= YIELD_WINDOW_MS
    return { cue_ms: cue, exercised, yielded, yield_latency_ms: yielded ? latency : null }
  })
}

/**
 * The barge-ins of a call for summarizeTurnMetrics: every scheduled barge-in (a said one with its measured
 * outcome, one never said as unexercised), plus the cues found after the fact in the audio that are not a
 * scheduled intervention. A found cue inside what the caller said for a scheduled one (barge-in or
 * backchannel) is that intervention, so it is not counted twice.
 */
export function bargeInYields(
  foundCues: readonly number[],
  scheduled: readonly InterventionOutcome[],
  assistantVoiced: readonly Interval[],
): YieldOutcome[] {
  const said = scheduled.flatMap((outcome) =>
    outcome.cue_ms === null || outcome.end_ms === null ? [] : [{ from: outcome.cue_ms, to: outcome.end_ms }],
  )
  const unscheduled = foundCues.filter(
    (cue) => !said.some((span) => cue >= span.from - SCHEDULED_CUE_TOLERANCE_MS && cue <= span.to),
  )
  const fromSchedule: YieldOutcome[] = scheduled
    .filter((outcome) => outcome.kind === 'barge_in')
    .map((outcome) => ({
      cue_ms: outcome.cue_ms,
      exercised: outcome.exercised,
      yielded: outcome.yielded,
      yield_latency_ms: outcome.yield_latency_ms,
    }))
  return [...yieldOutcomes(unscheduled, assistantVoiced), ...fromSchedule]
}

/**
 * Voice activity may place a segment's onset a frame before the planned start of the words (its frames do not
 * fall on the media clock's steps); anything nearer than this to a scheduled utterance is that utterance.
 */
const SCHEDULED_CUE_TOLERANCE_MS = 50

const mean = (values: readonly number[]) =>
  values.length === 0
    ? null
    : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 1000) / 1000

function summary(answers: readonly VerifiedAnswer[]) {
  const times = answers.flatMap((answer) =>
    answer.time_to_verified_answer_ms === null ? [] : [answer.time_to_verified_answer_ms],
  )
  return { count: answers.length, mean_ms: mean(times) }
}

export function summarizeTurnMetrics(
  yields: readonly YieldOutcome[],
  answers: readonly VerifiedAnswer[],
): RunTurnMetrics {
  const exercised = yields.filter((outcome) => outcome.exercised)
  const yielded = exercised.filter((outcome) => outcome.yielded === true)
  return RunTurnMetricsSchema.parse({
    yield_rate:
      exercised.length === 0 ? null : Math.round((yielded.length / exercised.length) * 10_000) / 10_000,
    yield_latency_ms: mean(yielded.map((outcome) => outcome.yield_latency_ms as number)),
    barge_ins: { exercised: exercised.length, unexercised: yields.length - exercised.length },
    time_to_verified_answer_ms: {
      tool_turns: summary(answers.filter((answer) => answer.tool_turn)),
      non_tool_turns: summary(answers.filter((answer) => !answer.tool_turn)),
    },
  })
}
