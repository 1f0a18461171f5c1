import { describe, expect, it } from 'vitest'
import { inChunks, sameBytes } from '../signals.test-helpers.ts'
import { expectedLossFraction, PacketLoss } from './packet-loss.ts'

const FRAME = 480

/** A signal whose every sample is non-zero, so silenced frames are unmistakable. */
function busy(samples: number): Int16Array {
  return Int16Array.from({ length: samples }, (_, i) => 1000 + (i % 97))
}

function lose(rate: number, burst: number, seed: number, frames: number, options: LoseOptions = {}) {
  const frameSamples = options.frameSamples ?? FRAME
  const loss = new PacketLoss(rate, burst, seed, frameSamples)
  let position = 0
  const samples = inChunks(busy(frames * frameSamples), options.sizes ?? [frames * frameSamples], (chunk) => {
    const copy = chunk.slice()
    loss.process(copy, position)
    position += chunk.length
    return copy
  })
  const silent: number[] = []
  for (let f = 0; f < frames; f++) {
    const frame = samples.subarray(f * frameSamples, (f + 1) * frameSamples)
    if (frame.every((value) => value === 0)) silent.push(f)
    else expect(frame.every((value) => value !== 0)).toBe(true) // frames are lost whole or not at all
  }
  return { samples, silent, lost: [...loss.lostFrames], lostTicks: loss.lostTicks }
}
interface LoseOptions {
  frameSamples?: number
  sizes?: number[]
}

/** The frames a long stream loses, read from the effect (one sample per frame, one chunk: fast). */
function lostFramesOf(rate: number, burst: number, seed: number, frames: number): number[] {
  const loss = new PacketLoss(rate, burst, seed, 1)
  loss.process(new Int16Array(frames).fill(1), 0)
  return [...loss.lostFrames]
}

/**
 * Consecutive lost frames as runs, and the kept frames between two runs. A run that reaches the end of the
 * stream (`frames`) may be cut short, so it is left out.
 */
function runsAndGaps(silent: readonly number[], frames: number) {
  const runs: number[] = []
  const gaps: number[] = []
  let previous = Number.NaN
  for (const frame of silent) {
    if (frame === previous + 1) runs[runs.length - 1] = (runs.at(-1) as number) + 1
    else {
      if (runs.length > 0) gaps.push(frame - previous - 1)
      runs.push(1)
    }
    previous = frame
  }
  if (previous === frames - 1) runs.pop()
  return { runs, gaps }
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

describe('PacketLoss', () => {
  it('loses exactly these frames for seed 7 at rate 0.08, burst 2', () => {
    const { silent, lost } = lose(0.08, 2, 7, 100)
    expect(lost).toEqual(silent)
    expect(silent).toEqual([20, 21, 29, 30, 37, 38, 72, 73, 94, 95])
  })

  // §5's parameters read as the reference's two-state model: in the good state each frame is lost with
  // probability `rate`, which begins a burst of `burst` lost frames; the frame after a burst is in the good
  // state again. So every run of lost frames is a whole number of bursts (a run grows by one more burst with
  // probability `rate`), the kept frames between runs are geometric with mean 1/rate, and the lost share is
  // rate·burst / (1 + rate·(burst - 1)). 200,000 frames per case and three seeds; the tolerances are a few
  // standard errors of each figure, so they hold for any seed.
  it.each([
    { rate: 0.08, burst: 2 }, // the packet_loss preset
    { rate: 0.04, burst: 1 }, // realistic
    { rate: 0.3, burst: 3 },
    { rate: 0.02, burst: 10 },
  ])('rate $rate, burst $burst: the runs, gaps and lost share of the two-state model', ({ rate, burst }) => {
    const frames = 200_000
    for (const seed of [1, 41, 0xdead]) {
      const silent = lostFramesOf(rate, burst, seed, frames)
      const { runs, gaps } = runsAndGaps(silent, frames)
      const bursts = runs.map((run) => run / burst)
      expect(bursts.every(Number.isInteger)).toBe(true)
      // Single bursts: share 1 - rate; bursts per run: mean 1 / (1 - rate).
      const single = bursts.filter((count) => count === 1).length / bursts.length
      expect(Math.abs(single - (1 - rate))).toBeLessThan(4 * Math.sqrt((rate * (1 - rate)) / bursts.length))
      expect(mean(bursts) * (1 - rate)).toBeCloseTo(1, 1)
      expect(mean(gaps) * rate).toBeCloseTo(1, 1)
      const share = silent.length / frames
      expect(Math.abs(share / expectedLossFraction(rate, burst) - 1)).toBeLessThan(0.05)
    }
  })

  it('names the lost share of §5 presets: 14.8 % for packet_loss (0.08, 2) and 4 % for realistic (0.04, 1)', () => {
    expect(expectedLossFraction(0.08, 2)).toBeCloseTo(0.16 / 1.08, 10)
    expect(expectedLossFraction(0.04, 1)).toBeCloseTo(0.04, 10)
    expect(expectedLossFraction(1, 5)).toBe(1)
    expect(expectedLossFraction(0, 5)).toBe(0)
  })

  it('loses whole frames of the given length: 200 ms frames make a burst of 2 a 400 ms gap', () => {
    const frameSamples = 24000 * 0.2
    const { samples, silent } = lose(0.08, 2, 41, 300, { frameSamples, sizes: [480] })
    const { runs } = runsAndGaps(silent, 300)
    expect(runs.length).toBeGreaterThan(10)
    expect(runs.every((run) => run % 2 === 0)).toBe(true)
    let zeros = 0
    for (const value of samples) if (value === 0) zeros++
    expect(zeros).toBe(silent.length * frameSamples)
  })

  it('loses everything at rate 1 and nothing at rate 0', () => {
    expect(lose(1, 3, 1, 30).silent).toHaveLength(30)
    expect(lose(0, 1, 1, 30).silent).toEqual([])
  })

  it('depends on the seed only: same frames for any chunk sizes, other frames for another seed', () => {
    const whole = lose(0.08, 2, 41, 500)
    const framed = lose(0.08, 2, 41, 500, { sizes: [480] })
    const odd = lose(0.08, 2, 41, 500, { sizes: [1, 700, 13, 4799] })
    expect(sameBytes(whole.samples, framed.samples)).toBe(true)
    expect(sameBytes(whole.samples, odd.samples)).toBe(true)
    expect(framed.lostTicks).toBe(framed.lost.length) // one chunk per frame: one tick per lost frame
    expect(lose(0.08, 2, 42, 500).silent).not.toEqual(whole.silent)
  })
})
