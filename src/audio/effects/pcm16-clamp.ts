// Int16Array assignment wraps out-of-range values (40000 becomes -25536), which would turn a loud mix into
// clicks; every effect that adds to a signal rounds and saturates through this instead.

/** The one double below 0.5: the only value where floor(x + 0.5) and Math.round(x) differ (x + 0.5 rounds to 1). */
const LARGEST_BELOW_HALF = 0.49999999999999994

/**
 * Math.round(x) for |x| < 2^52 (audio sums stay below 2^20), for the per-sample loops. V8 compiles Math.round to
 * a compare-and-branch on the fraction, which noise and speech make unpredictable (it took two thirds of the
 * white-noise loop); floor(x + 0.5) is one rounding instruction. In that range x + 0.5 is exact, and so equal
 * to Math.round, for every double but one, which the comparison (always false, so always predicted) handles.
 * The bytes are the same.
 */
export function roundHalfUp(x: number): number {
  return x === LARGEST_BELOW_HALF ? 0 : Math.floor(x + 0.5)
}

export function saturatePcm16(value: number): number {
  return Math.min(32767, Math.max(-32768, roundHalfUp(value)))
}
