import { describe, expect, it } from 'vitest'
import { callerRequest, inChunks, peakLag, sameBytes } from '../signals.test-helpers.ts'
import { Echo } from './echo.ts'

function withEcho(samples: Int16Array, delayMs: number, decay: number, sizes = [samples.length]): Int16Array {
  const echo = new Echo(Math.round(delayMs * 24), decay)
  return inChunks(samples, sizes, (chunk) => {
    const copy = chunk.slice()
    echo.process(copy)
    return copy
  })
}

describe('Echo', () => {
  it('shows its 120 ms delay as the cross-correlation peak between the added echo and the voice', async () => {
    const speech = (await callerRequest()).subarray(12_000, 48_000) // 0.5-2 s: the first words
    const echoed = withEcho(speech, 120, 0.35)
    const added = Int16Array.from(echoed, (value, i) => value - (speech[i] as number))
    // Search 30-250 ms: a voice correlates with itself around lag 0 whatever happens.
    const lag = peakLag(added, speech, 30 * 24, 250 * 24)
    expect(lag / 24).toBeCloseTo(120, 0)
  })

  it('repeats with the decay per round trip (feedback)', () => {
    const impulse = new Int16Array(24 * 400)
    impulse[0] = 10000
    const echoed = withEcho(impulse, 120, 0.35)
    expect([echoed[0], echoed[120 * 24], echoed[240 * 24], echoed[360 * 24]]).toEqual([
      10000, 3500, 1225, 429,
    ])
    expect(echoed[120 * 24 - 1]).toBe(0)
  })

  it('gives identical bytes whole and in 20 ms frames or chunks shorter than the delay', async () => {
    const speech = await callerRequest()
    const whole = withEcho(speech, 120, 0.35)
    expect(sameBytes(whole, withEcho(speech, 120, 0.35, [480]))).toBe(true)
    expect(sameBytes(whole, withEcho(speech, 120, 0.35, [1, 33, 5000]))).toBe(true)
  })

  it('treats a 0 ms delay as one reflection arriving with the voice', () => {
    expect([...withEcho(Int16Array.of(1000, -2000), 0, 0.5)]).toEqual([1500, -3000])
  })
})
