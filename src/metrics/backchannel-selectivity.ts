// Backchannel selectivity (issue 21): of the caller's backchannels ("mm-hmm" while the assistant talks or after it),
// how many the assistant left unanswered, as a voice agent should. A backchannel is answered when the assistant's
// voice starts after the backchannel began and within ANSWER_WINDOW_MS of its end, before the caller's next turn,
// and no tool result was published in between (speech a result prompts answers the work, not the "mm-hmm").
// Speech that merely goes on through the backchannel has no onset there: it is not an answer.
// selectivity = ignored / backchannels; null when the caller gave none.
import type { BackchannelSelectivity } from '../reporting/extensions/voice-metrics.ts'
import { type Interval, unionIntervals } from './intervals.ts'
import type { CallerTurn } from './response-opportunities.ts'
import { roundToFourPlaces } from './rounding.ts'

export const ANSWER_WINDOW_MS = 2_000

export function answeredBackchannels(
  callerTurns: readonly CallerTurn[],
  assistantVoiced: readonly Interval[],
  toolResultsMs: readonly number[],
): boolean[] {
  const onsets = unionIntervals(assistantVoiced).map((interval) => interval.start_ms)
  const sorted = [...callerTurns].sort((a, b) => a.start_ms - b.start_ms)
  return sorted.flatMap((turn, index) => {
    if (turn.kind !== 'backchannel') return []
    const nextStart = sorted[index + 1]?.start_ms ?? Number.POSITIVE_INFINITY
    const until = Math.min(turn.end_ms + ANSWER_WINDOW_MS, nextStart)
    const onset = onsets.find((start) => start > turn.start_ms && start < until)
    const prompted =
      onset !== undefined && toolResultsMs.some((result) => result >= turn.start_ms && result <= onset)
    return [onset !== undefined && !prompted]
  })
}

export function backchannelSelectivity(
  callerTurns: readonly CallerTurn[],
  assistantVoiced: readonly Interval[],
  toolResultsMs: readonly number[],
): BackchannelSelectivity {
  const answered = answeredBackchannels(callerTurns, assistantVoiced, toolResultsMs)
  const answeredCount = answered.filter(Boolean).length
  const ignored = answered.length - answeredCount
  return {
    backchannels: answered.length,
    answered: answeredCount,
    ignored,
    selectivity: answered.length === 0 ? null : roundToFourPlaces(ignored / answered.length),
  }
}
