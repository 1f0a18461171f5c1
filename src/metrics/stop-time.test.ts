import { describe, expect, test } from 'vitest'
import { bargeInOnsetsMs, stopTime, stopTimesMs } from './stop-time.ts'

const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })

describe('stop time after an interruption', () => {
  test('from the barge-in to the end of the voice it landed in, past the 2 s yield window too', () => {
    // Cue 1 at 1 500 inside 1 000-1 800: 300. Cue 2 at 5 000 inside 4 000-8 000: 3 000 (yield latency would be
    // null there: it did not yield within 2 s). Cue 3 at 9 000 while quiet: nothing to stop.
    const assistant = [voiced(1_000, 1_800), voiced(4_000, 8_000)]
    expect(stopTimesMs([1_500, 5_000, 9_000], assistant)).toEqual([300, 3_000, null])
    expect(stopTime([1_500, 5_000, 9_000], assistant)).toEqual({
      barge_ins: 3,
      while_talking: 2,
      mean_ms: (300 + 3_000) / 2,
      max_ms: 3_000,
    })
  })
  test('touching voiced pieces are one stretch of talk', () => {
    // 0-1 000 and 1 000-2 500 union to 0-2 500: a cue at 800 stops after 1 700.
    expect(stopTimesMs([800], [voiced(0, 1_000), voiced(1_000, 2_500)])).toEqual([1_700])
  })
  test('null when no barge-in or none landed while the assistant talked, never 0', () => {
    expect(stopTime([], [voiced(0, 1_000)])).toEqual({
      barge_ins: 0,
      while_talking: 0,
      mean_ms: null,
      max_ms: null,
    })
    // The voice ends at 1 000: a cue 50 ms or more after it finds the assistant already quiet.
    expect(stopTime([1_050], [voiced(0, 1_000)])).toEqual({
      barge_ins: 1,
      while_talking: 0,
      mean_ms: null,
      max_ms: null,
    })
  })
  test('a voice that ended within a voice-activity frame before the cue stopped at once: 0 ms, not unknown', () => {
    // Offline the assistant yields the instant the caller starts (3 600); the caller's onset is found at 3 610.
    expect(stopTimesMs([3_610, 1_000], [voiced(2_610, 3_600), voiced(0, 1_000)])).toEqual([0, 0])
  })
  test('barge-ins found after the fact: caller speech that began while the assistant talked, backchannels not', () => {
    // Assistant 1 000-3 000. Caller segments: 0-800 (before it: no), 1 500-2 000 (inside: yes), 2 200-2 400 a
    // backchannel (inside, but not a barge-in), 3 030 (30 ms after its voice ended, within the 50 ms onset
    // tolerance: it yielded at once, yes), 3 100 (quiet: no).
    const segments = [
      { start_ms: 0, end_ms: 800, kind: 'request' as const },
      { start_ms: 1_500, end_ms: 2_000, kind: 'request' as const },
      { start_ms: 2_200, end_ms: 2_400, kind: 'backchannel' as const },
      { start_ms: 3_030, end_ms: 3_090, kind: 'request' as const },
      { start_ms: 3_100, end_ms: 4_000, kind: 'closing' as const },
    ]
    expect(bargeInOnsetsMs(segments, [voiced(1_000, 3_000)])).toEqual([1_500, 3_030])
    expect(bargeInOnsetsMs(segments, [])).toEqual([])
  })
})
