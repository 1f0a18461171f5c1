// Second-order IIR sections (RBJ audio-EQ cookbook formulas), run in transposed direct form II with their two
// memories kept between chunks, so filtering is causal and frame-safe.

export class Biquad {
  readonly #b0: number
  readonly #b1: number
  readonly #b2: number
  readonly #a1: number
  readonly #a2: number
  #z1 = 0
  #z2 = 0

  private constructor(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number) {
    this.#b0 = b0 / a0
    this.#b1 = b1 / a0
    this.#b2 = b2 / a0
    this.#a1 = a1 / a0
    this.#a2 = a2 / a0
  }

  static highPass(cornerHz: number, q: number, sampleRateHz: number): Biquad {
    const { cos, alpha } = angles(cornerHz, q, sampleRateHz)
    return new Biquad((1 + cos) / 2, -(1 + cos), (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha)
  }

  static lowPass(cornerHz: number, q: number, sampleRateHz: number): Biquad {
    const { cos, alpha } = angles(cornerHz, q, sampleRateHz)
    return new Biquad((1 - cos) / 2, 1 - cos, (1 - cos) / 2, 1 + alpha, -2 * cos, 1 - alpha)
  }

  /** Filter `signal` in place. */
  process(signal: Float64Array): void {
    const b0 = this.#b0
    const b1 = this.#b1
    const b2 = this.#b2
    const a1 = this.#a1
    const a2 = this.#a2
    let z1 = this.#z1
    let z2 = this.#z2
    for (let i = 0; i < signal.length; i++) {
      const x = signal[i] as number
      const y = b0 * x + z1
      z1 = b1 * x - a1 * y + z2
      z2 = b2 * x - a2 * y
      signal[i] = y
    }
    this.#z1 = z1
    this.#z2 = z2
  }
}

function angles(cornerHz: number, q: number, sampleRateHz: number): { cos: number; alpha: number } {
  const w0 = (2 * Math.PI * cornerHz) / sampleRateHz
  return { cos: Math.cos(w0), alpha: Math.sin(w0) / (2 * q) }
}
