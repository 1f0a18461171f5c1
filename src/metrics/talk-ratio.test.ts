import { describe, expect, test } from 'vitest'
import { talkRatio } from './talk-ratio.ts'

const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })

describe('talk ratio', () => {
  test("the assistant's share of speaking time, overlap counted for both sides", () => {
    // Assistant 0-3 000 and 5 000-6 000: 4 000 ms. Caller 2 000-4 000 and 3 500-4 500 (union 2 000-4 500): 2 500 ms.
    // 4 000 / (4 000 + 2 500) = 0.615384… -> 0.6154.
    expect(
      talkRatio([voiced(0, 3_000), voiced(5_000, 6_000)], [voiced(2_000, 4_000), voiced(3_500, 4_500)]),
    ).toEqual({ assistant_ms: 4_000, caller_ms: 2_500, ratio: 0.6154 })
  })
  test('a silent assistant is 0, a silent caller 1; nobody speaking is null', () => {
    expect(talkRatio([], [voiced(0, 1_000)]).ratio).toBe(0)
    expect(talkRatio([voiced(0, 1_000)], []).ratio).toBe(1)
    expect(talkRatio([], [])).toEqual({ assistant_ms: 0, caller_ms: 0, ratio: null })
  })
})
