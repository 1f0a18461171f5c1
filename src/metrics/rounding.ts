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

/** `value` rounded to `places` decimal places (0–10), ties to even (Python `round(x, places)`). */
export function roundToPlaces(value: number, places: number): number {
  if (!Number.isFinite(value)) return value
  const scale = 10 ** (places + 1)
  const scaled = Math.round(value * scale)
  // A trailing 5 one place further is exactly representable only when the scaled value is a multiple of
  // 5^(places + 1): only then is the value a true binary tie (e.g. 0.03125 at 4 places, 0.0625 at 3).
  const exactTie = scaled % 10 === 5 && scaled % 5 ** (places + 1) === 0 && scaled / scale === value
  if (exactTie) {
    const lower = (scaled - 5) / 10
    return (lower % 2 === 0 ? lower : lower + 1) / 10 ** places
  }
  return Number(value.toFixed(places))
}

/** `value` rounded to 4 decimal places, ties to even (Python `round(x, 4)`): the reference's rates and scores. */
export function roundToFourPlaces(value: number): number {
  return roundToPlaces(value, 4)
}
