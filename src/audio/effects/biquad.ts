// Cascaded second-order IIR sections (RBJ audio-EQ cookbook formulas), run in transposed direct form II with
// their memories kept between chunks, so filtering is causal and frame-safe. The whole cascade runs in one loop
// per sample (coefficients and memories in typed arrays): one pass over the signal instead of one per section.

export interface BiquadSection {
  b0: number
  b1: number
  b2: number
  a1: number
  a2: number
}

export function highPass(cornerHz: number, q: number, sampleRateHz: number): BiquadSection {
  const { cos, alpha } = angles(cornerHz, q, sampleRateHz)
  return normalize((1 + cos) / 2, -(1 + cos), (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha)
}

export function lowPass(cornerHz: number, q: number, sampleRateHz: number): BiquadSection {
  const { cos, alpha } = angles(cornerHz, q, sampleRateHz)
  return normalize((1 - cos) / 2, 1 - cos, (1 - cos) / 2, 1 + alpha, -2 * cos, 1 - alpha)
}

export class BiquadCascade {
  readonly #coefficients: Float64Array
  readonly #memory: Float64Array
  readonly #sections: number

  constructor(sections: readonly BiquadSection[]) {
    this.#sections = sections.length
    this.#coefficients = Float64Array.from(sections.flatMap(({ b0, b1, b2, a1, a2 }) => [b0, b1, b2, a1, a2]))
    this.#memory = new Float64Array(2 * sections.length)
  }

  /** Filter `samples` in place, then multiply by `gain`; results are rounded and saturated to PCM16. */
  process(samples: Int16Array, gain = 1): void {
    const c = this.#coefficients
    const z = this.#memory
    const sections = this.#sections
    for (let i = 0; i < samples.length; i++) {
      let x = samples[i] as number
      for (let s = 0; s < sections; s++) {
        const k = 5 * s
        const m = 2 * s
        const y = (c[k] as number) * x + (z[m] as number)
        z[m] = (c[k + 1] as number) * x - (c[k + 3] as number) * y + (z[m + 1] as number)
        z[m + 1] = (c[k + 2] as number) * x - (c[k + 4] as number) * y
        x = y
      }
      samples[i] = Math.min(32767, Math.max(-32768, Math.round(x * gain)))
    }
  }
}

function normalize(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number): BiquadSection {
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 }
}

function angles(cornerHz: number, q: number, sampleRateHz: number): { cos: number; alpha: number } {
  const w0 = (2 * Math.PI * cornerHz) / sampleRateHz
  return { cos: Math.cos(w0), alpha: Math.sin(w0) / (2 * q) }
}
