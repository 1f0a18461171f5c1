// Uniform white noise at a target RMS, added to the signal (the reference toolkit's noise is uniform, so ours
// is too). §5 allows noise_rms 0..32767, and the noise alone comes out at that level across the whole range:
// - Usually a uniform spread on [-a, a]: its RMS is a/√3, so a = rms·√3. Rounding to integers adds 1/12 to the
//   mean square, under 0.3 % of the level from rms 4 up, so there the plain formula stands (and keeps the bytes
//   of every preset as they were).
// - Below rms 4 the rounding dominates (at rms 1 it would add 5.5 %), so a is solved from the exact mean square
//   of the rounded spread instead.
// - Above 32767/√3 ≈ 18,918 the spread no longer fits in PCM16, and clipping it would lose up to 21.6 % (at
//   32,767). The spread stays at full scale and a share of the samples sits on the full-scale edges ±32767,
//   chosen so the mean square is rms²: at 32,767 every sample is an edge.

import type { AudioEffect } from './effect.ts'
import { SeededRandom } from './random.ts'

const FULL_SCALE = 32767
/** From this RMS up, a = rms·√3 is within 0.3 % once rounded (the rounding adds 1/12 to the mean square). */
const PLAIN_FORMULA_FROM_RMS = 4

/** The noise's shape for one RMS: a uniform spread and the share of samples on its edges ±edge. */
export interface NoiseShape {
  amplitude: number
  edgeShare: number
}

export function noiseShape(rms: number): NoiseShape {
  if (rms <= 0) return { amplitude: 0, edgeShare: 0 }
  if (rms < PLAIN_FORMULA_FROM_RMS) return { amplitude: amplitudeForSmallRms(rms), edgeShare: 0 }
  const amplitude = rms * Math.sqrt(3)
  if (amplitude <= FULL_SCALE) return { amplitude, edgeShare: 0 }
  // Mixture: mean square = share·edge² + (1 - share)·(edge²/3 + 1/12) = rms².
  const spreadMeanSquare = (FULL_SCALE * FULL_SCALE) / 3 + 1 / 12
  const edgeShare = (rms * rms - spreadMeanSquare) / (FULL_SCALE * FULL_SCALE - spreadMeanSquare)
  return { amplitude: FULL_SCALE, edgeShare: Math.min(1, Math.max(0, edgeShare)) }
}

/** Mean square of round(u), u uniform on [-a, a]: the average of round(x)² over [0, a]. */
function roundedMeanSquare(a: number): number {
  let integral = 0
  for (let k = 1; k - 0.5 < a; k++) integral += k * k * (Math.min(a, k + 0.5) - (k - 0.5))
  return integral / a
}

/** The spread whose rounded values have mean square rms² (that mean square only grows with the spread). */
function amplitudeForSmallRms(rms: number): number {
  let low = 0.5
  let high = PLAIN_FORMULA_FROM_RMS * Math.sqrt(3) + 1
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2
    if (roundedMeanSquare(middle) < rms * rms) low = middle
    else high = middle
  }
  return (low + high) / 2
}

export class WhiteNoise implements AudioEffect {
  readonly #random: SeededRandom
  readonly #shape: NoiseShape

  constructor(rms: number, seed: number) {
    this.#random = new SeededRandom(seed)
    this.#shape = noiseShape(rms)
  }

  process(samples: Int16Array): void {
    if (this.#shape.amplitude === 0) return
    this.#random.addUniform(samples, this.#shape.amplitude, this.#shape.edgeShare, FULL_SCALE)
  }
}
