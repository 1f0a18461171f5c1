// Stop time after an interruption (issue 21): how long the assistant keeps talking after a caller barge-in begins,
// for every barge-in, scheduled or found after the fact in the audio (the cues of RUN's yield outcomes). It extends
// yield latency (phases/run/turn-metrics.ts), which is null past the 2 s yield window and for cues the 300 ms rule
// leaves unexercised: stop time is measured whenever the assistant was talking when the barge-in began, however
// long it went on. A barge-in that began while the assistant was quiet has nothing to stop and is left out (not 0).
import type { StopTime } from '../reporting/extensions/voice-metrics.ts'
import { type Interval, unionIntervals } from './intervals.ts'

/** For each cue: from the cue to the end of the assistant's voice it landed in; null when the assistant was quiet. */
export function stopTimesMs(
  cuesMs: readonly number[],
  assistantVoiced: readonly Interval[],
): (number | null)[] {
  const voiced = unionIntervals(assistantVoiced)
  return cuesMs.map((cue) => {
    const talking = voiced.find((interval) => interval.start_ms <= cue && cue < interval.end_ms)
    return talking === undefined ? null : talking.end_ms - cue
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
