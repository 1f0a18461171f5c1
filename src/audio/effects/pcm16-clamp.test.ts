import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { roundHalfUp, saturatePcm16 } from './pcm16-clamp.ts'

// +0 for -0: Int16Array stores both as 0, and the effects only ever store the result.
const plain = (value: number) => (value === 0 ? 0 : value)

describe('roundHalfUp', () => {
  it('equals Math.round at the values where floor(x + 0.5) could differ', () => {
    const edges = [
      0.49999999999999994, // the one double below 0.5: x + 0.5 rounds up to 1
      -0.49999999999999994,
      0.5,
      -0.5,
      1.5,
      -1.5,
      2.5,
      -2.5,
      32766.5,
      -32768.5,
      2 ** 52 - 0.5,
      -(2 ** 52) + 0.5,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      0,
      -0,
    ]
    for (const x of edges) expect(plain(roundHalfUp(x)), String(x)).toBe(plain(Math.round(x)))
    expect(Math.floor(0.49999999999999994 + 0.5)).toBe(1) // why the special case exists
  })

  it('equals Math.round for any double below 2^52 in size (audio sums stay below 2^20)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -(2 ** 52), max: 2 ** 52, noNaN: true }),
        (x) => plain(roundHalfUp(x)) === plain(Math.round(x)),
      ),
      { numRuns: 20_000 },
    )
  })

  it('equals Math.round on every half step of the PCM16 range and its neighbours', () => {
    for (let k = -32769; k <= 32768; k++) {
      for (const x of [k + 0.5, k + 0.5 - 2 ** -40, k + 0.5 + 2 ** -40]) {
        if (plain(roundHalfUp(x)) !== plain(Math.round(x))) expect.fail(`differs at ${x}`)
      }
    }
  })
})

describe('saturatePcm16', () => {
  it('rounds and saturates to the PCM16 range', () => {
    expect([40000.2, -40000, 32766.5, -32768.5, 12.5, -12.5].map(saturatePcm16)).toEqual([
      32767, -32768, 32767, -32768, 13, -12,
    ])
  })
})
