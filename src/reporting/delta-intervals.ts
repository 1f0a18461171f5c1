// 95% intervals for the difference between two models' figures on the same scenarios. Each says what it assumes:
// - a pass rate: Newcombe's hybrid score interval (from the two Wilson intervals), which stays inside [-1, 1] and
//   is not degenerate at 0% or 100%; it treats the two samples as independent, which is conservative for paired
//   scenarios (pairing only narrows the truth);
// - a mean: Welch's normal interval, null below two values on either side (the spread is unknown);
// - a percentile (P50, P95 latency): a percentile bootstrap of the difference with a fixed seed, so the same
//   results give the same interval; null when either side has no value.
import { distributionOf, meanOf, percentile, standardDeviationOf, wilsonInterval } from './statistics.ts'

const Z_95 = 1.959963984540054

export interface DeltaInterval {
  /** candidate − reference; null when either is unknown. */
  delta: number | null
  lower: number | null
  upper: number | null
}

const UNKNOWN: DeltaInterval = { delta: null, lower: null, upper: null }

/** The difference of two pass rates (candidate − reference) with Newcombe's 95% interval. */
export function passRateDelta(
  reference: { successes: number; n: number },
  candidate: { successes: number; n: number },
): DeltaInterval {
  if (reference.n === 0 || candidate.n === 0) return UNKNOWN
  const a = wilsonInterval(reference.successes, reference.n)
  const b = wilsonInterval(candidate.successes, candidate.n)
  const [p1, l1, u1] = [a.estimate as number, a.lower as number, a.upper as number]
  const [p2, l2, u2] = [b.estimate as number, b.lower as number, b.upper as number]
  const delta = p2 - p1
  return {
    delta,
    lower: delta - Math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
    upper: delta + Math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2),
  }
}

/** The difference of two means with Welch's 95% normal interval. */
export function meanDelta(reference: readonly number[], candidate: readonly number[]): DeltaInterval {
  const m1 = meanOf(reference)
  const m2 = meanOf(candidate)
  if (m1 === null || m2 === null) return UNKNOWN
  const s1 = standardDeviationOf(reference)
  const s2 = standardDeviationOf(candidate)
  if (s1 === null || s2 === null) return { delta: m2 - m1, lower: null, upper: null }
  const half = Z_95 * Math.sqrt(s1 ** 2 / reference.length + s2 ** 2 / candidate.length)
  return { delta: m2 - m1, lower: m2 - m1 - half, upper: m2 - m1 + half }
}

const BOOTSTRAP_RESAMPLES = 2_000

/** A small seeded generator (mulberry32): the bootstrap must give the same interval for the same results. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function resampledPercentile(values: readonly number[], p: number, random: () => number): number {
  const sample = Array.from(
    { length: values.length },
    () => values[Math.floor(random() * values.length)] as number,
  )
  return percentile(
    sample.sort((x, y) => x - y),
    p,
  ) as number
}

/** The difference of two percentiles (nearest rank, as everywhere else) with a seeded bootstrap 95% interval. */
export function percentileDelta(
  reference: readonly number[],
  candidate: readonly number[],
  p: number,
): DeltaInterval {
  const a = [...reference].sort((x, y) => x - y)
  const b = [...candidate].sort((x, y) => x - y)
  const pa = percentile(a, p)
  const pb = percentile(b, p)
  if (pa === null || pb === null) return UNKNOWN
  const random = seededRandom(a.length * 7_919 + b.length * 104_729 + p)
  const deltas = Array.from(
    { length: BOOTSTRAP_RESAMPLES },
    () => resampledPercentile(b, p, random) - resampledPercentile(a, p, random),
  ).sort((x, y) => x - y)
  const spread = distributionOf(deltas)
  return {
    delta: pb - pa,
    lower: percentile(deltas, 2.5) ?? spread.min,
    upper: percentile(deltas, 97.5) ?? spread.max,
  }
}
