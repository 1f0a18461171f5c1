import { describe, expect, it } from 'vitest'
import { rms, sameBytes } from '../signals.test-helpers.ts'
import { WhiteNoise } from './white-noise.ts'

function noiseOnly(target: number, seed: number, seconds = 5): Int16Array {
  const samples = new Int16Array(24000 * seconds)
  new WhiteNoise(target, seed).process(samples)
  return samples
}

describe('WhiteNoise', () => {
  it.each([100, 500, 1200, 5000])('adds noise whose RMS is within 3%% of %d', (target) => {
    const measured = rms(noiseOnly(target, 41))
    expect(Math.abs(measured - target) / target).toBeLessThan(0.03)
  })

  it('is uniform: every value lies within ±rms·√3 and the spread fills it', () => {
    const samples = noiseOnly(1000, 7)
    const bound = Math.round(1000 * Math.sqrt(3))
    let max = 0
    for (const value of samples) max = Math.max(max, Math.abs(value))
    expect(max).toBeLessThanOrEqual(bound)
    expect(max).toBeGreaterThan(bound * 0.99)
  })

  it('gives the same bytes for the same seed and different bytes for another seed', () => {
    expect(sameBytes(noiseOnly(1200, 42, 1), noiseOnly(1200, 42, 1))).toBe(true)
    expect(sameBytes(noiseOnly(1200, 42, 1), noiseOnly(1200, 43, 1))).toBe(false)
  })

  it('saturates instead of wrapping around when the mix leaves the PCM16 range', () => {
    const loud = new Int16Array(2400).fill(32000)
    new WhiteNoise(5000, 1).process(loud)
    expect(Math.min(...loud)).toBeGreaterThan(20000)
    expect(Math.max(...loud)).toBe(32767)
  })
})
