// Second-order IIR sections (RBJ audio-EQ cookbook formulas), normalized so a0 = 1. The phone line runs its
// band-pass cascade of them in transposed direct form II, its memories kept between chunks (assets/phone-line.c).

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

function normalize(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number): BiquadSection {
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 }
}

function angles(cornerHz: number, q: number, sampleRateHz: number): { cos: number; alpha: number } {
  const w0 = (2 * Math.PI * cornerHz) / sampleRateHz
  return { cos: Math.cos(w0), alpha: Math.sin(w0) / (2 * q) }
}
