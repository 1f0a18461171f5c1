// Uniform white noise at a target RMS, added to the signal (the reference toolkit's noise is uniform, so ours
// is too). A uniform distribution on [-a, a] has RMS a/√3, so a = rms·√3 gives the target exactly in
// expectation; rounding to integers adds 1/12 to the variance, which is negligible at any audible level.

import type { AudioEffect } from './effect.ts'
import { SeededRandom } from './random.ts'

export class WhiteNoise implements AudioEffect {
  readonly #random: SeededRandom
  readonly #amplitude: number

  constructor(rms: number, seed: number) {
    this.#random = new SeededRandom(seed)
    this.#amplitude = rms * Math.sqrt(3)
  }

  process(samples: Int16Array): void {
    this.#random.addUniform(samples, this.#amplitude)
  }
}
