import { describe, expect, it } from 'vitest'
import { totalTurns } from './total-turns.ts'

describe('total_turns as the reference counts it', () => {
  it('the published offline date correction (caller OPENING, SPEAK, SPEAK, STOP; four assistant turns): 7', () => {
    const caller = [
      { action: 'OPENING' as const, startMs: 0 },
      { action: 'SPEAK' as const, startMs: 4_200 },
      { action: 'SPEAK' as const, startMs: 9_800 },
      { action: 'STOP' as const, startMs: 15_000 },
    ]
    // One answer per request, and a goodbye after the caller's closing (it answers no request).
    expect(totalTurns(caller, [1_900, 6_400, 11_900, 16_200])).toBe(7)
  })

  it('the published live assistant-first booking (farewell in two voiced parts; seven assistant lines): 7', () => {
    const caller = [
      { action: 'OPENING' as const, startMs: 4_840 },
      { action: 'SPEAK' as const, startMs: 16_280 },
      { action: 'SPEAK' as const, startMs: 33_300 },
      { action: 'SPEAK' as const, startMs: 35_100 },
    ]
    const assistant = [1_180, 9_800, 11_640, 20_920, 24_240, 28_980, 37_440]
    expect(totalTurns(caller, assistant)).toBe(7)
  })

  it('backchannels are not turns and do not split an episode; an ignored request has no episode', () => {
    const caller = [
      { action: 'OPENING' as const, startMs: 0 },
      { action: 'BACKCHANNEL' as const, startMs: 3_000 },
      { action: 'SPEAK' as const, startMs: 8_000 },
      { action: 'INTERRUPT' as const, startMs: 9_000 },
    ]
    expect(totalTurns(caller, [2_000, 4_000, 10_000])).toBe(3 + 2)
  })
})
