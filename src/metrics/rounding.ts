// Rounding that agrees with the reference toolkit's Python `round`: ties go to the even neighbour, and a tie only
// exists when the binary value lies exactly halfway (so 0.12345 rounds up, as it is stored slightly above).

/** Nearest integer, ties to even (Python `round(x)`). */
export function roundHalfEvenToInteger(value: number): number {
  const floor = Math.floor(value)
  const fraction = value - floor
  if (fraction > 0.5) return floor + 1
  if (fraction < 0.5) return floor
  return floor % 2 === 0 ? floor : floor + 1
}

/** `value` rounded to 4 decimal places, ties to even (Python `round(x, 4)`). */
export function roundToFourPlaces(value: number): number {
  if (!Number.isFinite(value)) return value
  const fiveDigits = Math.round(value * 1e5)
  // A fifth-decimal 5 is exactly representable only when it is a multiple of 1/32 (m divisible by 5^5 = 3125).
  const exactTie = fiveDigits % 10 === 5 && fiveDigits % 3125 === 0 && fiveDigits / 1e5 === value
  if (exactTie) {
    const lower = (fiveDigits - 5) / 10
    return (lower % 2 === 0 ? lower : lower + 1) / 1e4
  }
  return Number(value.toFixed(4))
}
