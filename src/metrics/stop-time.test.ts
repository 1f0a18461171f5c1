import { describe, expect, test } from 'vitest'
import { stopTime, stopTimesMs } from './stop-time.ts'

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
    // The voice ends at 1 000: a cue exactly there finds the assistant already quiet.
    expect(stopTime([1_000], [voiced(0, 1_000)])).toEqual({
      barge_ins: 1,
      while_talking: 0,
      mean_ms: null,
      max_ms: null,
    })
  })
})
