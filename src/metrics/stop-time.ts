// Stop time after an interruption (issue 21): how long the assistant keeps talking after a caller barge-in begins,
// for every barge-in, scheduled or found after the fact in the audio (the cues of RUN's yield outcomes). It extends
// yield latency (phases/run/turn-metrics.ts), which is null past the 2 s yield window and for cues the 300 ms rule
// leaves unexercised: stop time is measured whenever the assistant was talking when the barge-in began, however
// long it went on. A barge-in that began while the assistant was quiet has nothing to stop and is left out (not 0).
import type { StopTime } from '../reporting/extensions/voice-metrics.ts'
import { type Interval, unionIntervals } from './intervals.ts'
import type { CallerTurn } from './response-opportunities.ts'

/**
 * Voice activity places an onset up to a frame off the moment the words start, so a barge-in the assistant yielded
 * to at once can show its onset just after the assistant's voice ended: a voice that ended this close before the
 * cue was talking when the barge-in began, and stopped at once (0 ms). RUN's after-the-fact cue finding uses it too.
 */
export const BARGE_IN_ONSET_TOLERANCE_MS = 50

/**
 * The barge-ins found after the fact: where a caller segment (not a backchannel) begins while the assistant talks,
 * or within the onset tolerance after its voice ended (it yielded at once). RUN reads them beside its scheduled
 * barge-ins; a single-turn row has only these (its caller resuming the request over an assistant that started in
 * a pause).
 */
export function bargeInOnsetsMs(
  callerSegments: readonly CallerTurn[],
  assistantVoiced: readonly Interval[],
): number[] {
  return callerSegments
    .filter((segment) => segment.kind !== 'backchannel')
    .filter((segment) =>
      assistantVoiced.some(
        (voiced) =>
          voiced.start_ms < segment.start_ms &&
          segment.start_ms < voiced.end_ms + BARGE_IN_ONSET_TOLERANCE_MS,
      ),
    )
    .map((segment) => segment.start_ms)
}

/**
 * For each cue: from the cue to the end of the assistant's voice it landed in (0 when that voice ended within the
 * onset tolerance before it); null when the assistant was quiet.
 */
export function stopTimesMs(
  cuesMs: readonly number[],
  assistantVoiced: readonly Interval[],
): (number | null)[] {
  const voiced = unionIntervals(assistantVoiced)
  return cuesMs.map((cue) => {
    const talking = voiced.find(
      (interval) => interval.start_ms <= cue && cue < interval.end_ms + BARGE_IN_ONSET_TOLERANCE_MS,
    )
    return talking === undefined ? null : Math.max(0, talking.end_ms - cue)
  })
}

export function stopTime(cuesMs: readonly number[], assistantVoiced: readonly Interval[]): StopTime {
  const measured = stopTimesMs(cuesMs, assistantVoiced).filter((ms): ms is number => ms !== null)
  return {
    barge_ins: cuesMs.length,
    while_talking: measured.length,
    mean_ms:
      measured.length === 0
        ? null
        : Math.round((measured.reduce((sum, ms) => sum + ms, 0) / measured.length) * 1000) / 1000,
    max_ms: measured.length === 0 ? null : Math.max(...measured),
  }
}
