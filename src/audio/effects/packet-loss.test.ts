import { describe, expect, it } from 'vitest'
import { inChunks, sameBytes } from '../signals.test-helpers.ts'
import { PacketLoss } from './packet-loss.ts'

const FRAME = 480

/** A signal whose every sample is non-zero, so silenced frames are unmistakable. */
function busy(frames: number): Int16Array {
  return Int16Array.from({ length: frames * FRAME }, (_, i) => 1000 + (i % 97))
}

function lose(rate: number, burst: number, seed: number, frames: number, sizes = [frames * FRAME]) {
  const loss = new PacketLoss(rate, burst, seed)
  let position = 0
  const samples = inChunks(busy(frames), sizes, (chunk) => {
    const copy = chunk.slice()
    loss.process(copy, position)
    position += chunk.length
    return copy
  })
  const silent: number[] = []
  for (let f = 0; f < frames; f++) {
    const frame = samples.subarray(f * FRAME, (f + 1) * FRAME)
    if (frame.every((value) => value === 0)) silent.push(f)
    else expect(frame.every((value) => value !== 0)).toBe(true) // frames are lost whole or not at all
  }
  return { samples, silent, lost: [...loss.lostFrames], lostTicks: loss.lostTicks }
}

describe('PacketLoss', () => {
  it('loses exactly these frames for seed 7 at rate 0.08, burst 2 (one burst per 25 frames)', () => {
    const { silent, lost } = lose(0.08, 2, 7, 100)
    expect(lost).toEqual(silent)
    expect(silent).toEqual([21, 22, 48, 49, 55, 56, 84, 85])
  })

  it('loses exactly rate × frames over whole windows, in bursts that never touch', () => {
    for (const [rate, burst] of [
      [0.08, 2],
      [0.04, 1],
      [0.3, 3],
      [0.15, 1],
    ] as const) {
      const windows = 40
      const frames = Math.round((windows * burst) / rate)
      const { silent } = lose(rate, burst, 11, frames)
      expect(silent.length).toBe(windows * burst)
      const runs: number[][] = []
      for (const frame of silent) {
        const run = runs.at(-1)
        if (run && run.at(-1) === frame - 1) run.push(frame)
        else runs.push([frame])
      }
      expect(runs.every((run) => run.length === burst)).toBe(true)
    }
  })

  it('loses everything at rate 1 and nothing at rate 0', () => {
    expect(lose(1, 3, 1, 30).silent).toHaveLength(30)
    expect(lose(0, 1, 1, 30).silent).toEqual([])
  })

  it('depends on the seed only: same frames for any chunk sizes, other frames for another seed', () => {
    const whole = lose(0.08, 2, 41, 500)
    const framed = lose(0.08, 2, 41, 500, [480])
    const odd = lose(0.08, 2, 41, 500, [1, 700, 13, 4799])
    expect(sameBytes(whole.samples, framed.samples)).toBe(true)
    expect(sameBytes(whole.samples, odd.samples)).toBe(true)
    expect(framed.lostTicks).toBe(40) // one 20 ms tick per lost frame
    expect(lose(0.08, 2, 42, 500).silent).not.toEqual(whole.silent)
  })
})
