// Seeded pseudo-random numbers for the effects. Every random choice (noise samples, packet-loss positions,
// the cough's breath noise) comes from one of these generators, so a seed fixes the output bytes on every
// platform: the state is a 32-bit integer and the mixing uses only Math.imul and shifts.
//
// The generator adds a Weyl constant to its state and passes it through an integer hash (xor-shift /
// multiply rounds), which gives well-mixed output even for neighbouring seeds such as 41 and 42.

import { roundHalfUp } from '../pcm.ts'

export const WEYL_INCREMENT = 0x9e3779b9
const TWO_TO_32 = 4_294_967_296

export class SeededRandom {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    this.#state = (this.#state + WEYL_INCREMENT) >>> 0
    let z = this.#state
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad)
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97)
    return (z ^ (z >>> 15)) >>> 0
  }

  /**
   * Add noise to each sample, rounded and saturated: the white-noise loop, with the generator written out so it
   * is inlined (about twice as fast as calling nextUnit per sample). One draw u per sample: below `edgeShare` it
   * picks an edge (-edge in its lower half, +edge in its upper half); above, it is stretched back onto [0, 1)
   * and gives the uniform value u·2a - a. With no edge share this is exactly nextUnit()·2a - a.
   */
  addUniform(into: Int16Array, amplitude: number, edgeShare = 0, edge = 0): void {
    const edgeBelow = edgeShare * TWO_TO_32
    const negativeBelow = edgeBelow / 2
    const span = (2 * amplitude) / ((1 - edgeShare) * TWO_TO_32)
    let state = this.#state
    for (let i = 0; i < into.length; i++) {
      state = (state + WEYL_INCREMENT) >>> 0
      let z = state
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad)
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97)
      const draw = (z ^ (z >>> 15)) >>> 0
      const sample = into[i] as number
      // Summed left to right as before the edges existed, so those bytes stay the same.
      const value = roundHalfUp(
        draw < edgeBelow
          ? sample + (draw < negativeBelow ? -edge : edge)
          : sample + (draw - edgeBelow) * span - amplitude,
      )
      into[i] = Math.min(32767, Math.max(-32768, value))
    }
    this.#state = state
  }

  /** Uniform in [0, 1). */
  nextUnit(): number {
    return this.nextUint32() / TWO_TO_32
  }

  /** Uniform integer in [low, high] (both inclusive). */
  nextIntInclusive(low: number, high: number): number {
    return low + Math.floor(this.nextUnit() * (high - low + 1))
  }
}

/** A seed for one effect, derived from the recording's seed so effects never share a random stream. */
export function effectSeed(seed: number, salt: number): number {
  return (seed ^ salt) >>> 0
}
