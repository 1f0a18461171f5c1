// The statistics a report and a gate quote: a pass rate's 95% Wilson interval, the unbiased pass^k estimator over
// repeated trials, and percentiles with their sample count. Unknown stays null: an empty sample has no mean and
// no percentile, never 0.

/** The two-sided 95% normal quantile. */
const Z_95 = 1.959963984540054

export interface ProportionInterval {
  successes: number
  n: number
  /** successes / n; null when n is 0. */
  estimate: number | null
  lower: number | null
  upper: number | null
}

/**
 * The Wilson score interval of `successes` out of `n`. Chosen over the normal approximation because it stays
 * inside [0, 1] and is not degenerate at 0 or n successes, which is where small eval suites live.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): ProportionInterval {
  assertCounts(successes, n, 'wilsonInterval')
  return wilsonIntervalOfRate(successes, n, z)
}

/**
 * The Wilson score interval of a rate observed over n independent units, given as `successes` (which may be a
 * sum of per-unit rates: a scenario that passed 2 of its 3 trials counts 2/3). Used where rows are not
 * independent draws, as the trials of one scenario are not.
 */
export function wilsonIntervalOfRate(successes: number, n: number, z: number = Z_95): ProportionInterval {
  if (!Number.isInteger(n) || n < 0 || !(successes >= 0 && successes <= n)) {
    throw new RangeError(`wilsonIntervalOfRate: need 0 <= successes <= n (got ${successes} of ${n})`)
  }
  if (n === 0) return { successes, n, estimate: null, lower: null, upper: null }
  const p = successes / n
  const z2 = z * z
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n)
  const halfWidth = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  return {
    successes,
    n,
    estimate: p,
    lower: Math.max(0, centre - halfWidth),
    upper: Math.min(1, centre + halfWidth),
  }
}

/**
 * pass^k: the probability that k trials drawn without replacement from n observed trials, c of which passed, all
 * pass, estimated without bias as C(c, k) / C(n, k). Computed as a product of ratios so large n cannot overflow.
 * Null when k exceeds n (fewer trials than asked about: unknown, not 0).
 */
export function passHatK(c: number, n: number, k: number): number | null {
  assertCounts(c, n, 'passHatK')
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`passHatK: k must be a positive integer (got ${k})`)
  if (k > n) return null
  if (c < k) return 0
  let product = 1
  for (let i = 0; i < k; i++) product *= (c - i) / (n - i)
  return product
}

export interface Distribution {
  n: number
  mean: number | null
  p50: number | null
  p90: number | null
  p95: number | null
  min: number | null
  max: number | null
}

/**
 * Nearest-rank percentile (the smallest value with at least p% of the sample at or below it). Decision: nearest
 * rank over interpolation, so a quoted P95 is always a latency that was actually observed.
 */
export function percentile(sortedAscending: readonly number[], p: number): number | null {
  if (sortedAscending.length === 0) return null
  const rank = Math.max(1, Math.ceil((p / 100) * sortedAscending.length))
  return sortedAscending[rank - 1] ?? null
}

/** The arithmetic mean; null for an empty sample (unknown, never 0). */
export function meanOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length
}

/** Mean, P50/P90/P95, min and max of the finite values given (nulls are the caller's to leave out). */
export function distributionOf(values: readonly number[]): Distribution {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  const n = sorted.length
  return {
    n,
    mean: meanOf(sorted),
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? null,
    max: sorted[n - 1] ?? null,
  }
}

/** Sample standard deviation (n - 1 in the denominator); null below two values, where spread is unknown. */
export function standardDeviationOf(values: readonly number[]): number | null {
  const mean = meanOf(values)
  if (mean === null || values.length < 2) return null
  const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0)
  return Math.sqrt(squares / (values.length - 1))
}

export interface Spread {
  n: number
  mean: number | null
  stdev: number | null
  min: number | null
  p50: number | null
  p90: number | null
  max: number | null
}

/** How far repeated measurements of one metric vary: n, mean, sample stdev, min, P50, P90 and max. */
export function spreadOf(values: readonly number[]): Spread {
  const { n, mean, min, p50, p90, max } = distributionOf(values)
  const finite = values.filter((value) => Number.isFinite(value))
  return { n, mean, stdev: standardDeviationOf(finite), min, p50, p90, max }
}

function assertCounts(successes: number, n: number, where: string): void {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`${where}: need integers 0 <= successes <= n (got ${successes} of ${n})`)
  }
}
