// RoomMix is a fast path: it must give, byte for byte, what BackgroundSpeech, WhiteNoise and Echo give one after
// the other, however the stream is cut and wherever it starts against the bed and the delay line.
import { describe, expect, it } from 'vitest'
import { BackgroundSpeech } from './background-speech.ts'
import { Echo } from './echo.ts'
import type { AudioEffect } from './effect.ts'
import { SeededRandom } from './random.ts'
import { RoomMix, type RoomMixSettings, roomMixApplies } from './room-mix.ts'
import { WhiteNoise } from './white-noise.ts'

function signal(length: number, seed: number, peak: number): Int16Array {
  const random = new SeededRandom(seed)
  return Int16Array.from({ length }, () => random.nextIntInclusive(-peak, peak))
}

function run(effects: AudioEffect[], input: Int16Array, chunk: number, origin: number): Int16Array {
  const out = input.slice()
  for (let start = 0; start < out.length; start += chunk) {
    const piece = out.subarray(start, Math.min(out.length, start + chunk))
    for (const effect of effects) effect.process(piece, origin + start)
  }
  return out
}

const separate = (s: RoomMixSettings): AudioEffect[] => [
  new BackgroundSpeech(s.bed, s.backgroundGain),
  new WhiteNoise(s.noiseRms, s.noiseSeed),
  new Echo(s.echoDelaySamples, s.echoDecay),
]

describe('RoomMix (background, noise and echo in one pass)', () => {
  const cases: Array<RoomMixSettings & { peak: number }> = [
    // The realistic preset's numbers, a loud caller that saturates, a short bed and delay that wrap often.
    {
      bed: signal(24_000, 1, 12_000),
      backgroundGain: 0.4,
      noiseRms: 500,
      noiseSeed: 41,
      echoDelaySamples: 2880,
      echoDecay: 0.25,
      peak: 9_000,
    },
    {
      bed: signal(997, 2, 32_767),
      backgroundGain: 0.9,
      noiseRms: 4,
      noiseSeed: 7,
      echoDelaySamples: 1,
      echoDecay: 0.9,
      peak: 32_767,
    },
    {
      bed: signal(5, 3, 20_000),
      backgroundGain: 1,
      noiseRms: 18_000,
      noiseSeed: 0,
      echoDelaySamples: 13,
      echoDecay: 0.5,
      peak: 30_000,
    },
  ]

  it.each(cases)(
    'gives the separate effects’ bytes (bed $bed.length samples, rms $noiseRms, delay $echoDelaySamples)',
    (settings) => {
      expect(roomMixApplies(settings)).toBe(true)
      const input = signal(24_000 * 2 + 17, 9, settings.peak)
      for (const chunk of [1, 7, 480, 24_000, input.length]) {
        for (const origin of [0, 23_999, 123_457]) {
          const expected = run(separate(settings), input, chunk, origin)
          expect(run([new RoomMix(settings)], input, chunk, origin)).toEqual(expected)
        }
      }
    },
  )

  it('declines settings the separate effects handle differently (edge-share noise, no noise, no delay, no bed)', () => {
    const base = cases[0] as RoomMixSettings
    expect(roomMixApplies({ ...base, noiseRms: 20_000 })).toBe(false)
    expect(roomMixApplies({ ...base, noiseRms: 0 })).toBe(false)
    expect(roomMixApplies({ ...base, echoDelaySamples: 0 })).toBe(false)
    expect(roomMixApplies({ ...base, bed: new Int16Array(0) })).toBe(false)
    expect(() => new RoomMix({ ...base, echoDelaySamples: 0 })).toThrow(/separate effects/)
  })
})
