// Interval arithmetic for the timing checks: the stretches of [start, end] that none of the covering intervals
// reaches (silences), and the longest of them (dead air).
import type { Interval } from '../../faults/experience.ts'

export interface Gap {
  start_ms: number
  ms: number
}

/** Every part of `span` no interval of `covered` overlaps, in time order. */
export function uncoveredGaps(span: Interval, covered: readonly Interval[]): Gap[] {
  const inside = covered
    .filter((interval) => interval.end_ms > span.start_ms && interval.start_ms < span.end_ms)
    .sort((a, b) => a.start_ms - b.start_ms)
  const gaps: Gap[] = []
  let cursor = span.start_ms
  for (const interval of inside) {
    if (interval.start_ms > cursor) gaps.push({ start_ms: cursor, ms: interval.start_ms - cursor })
    cursor = Math.max(cursor, interval.end_ms)
  }
  if (span.end_ms > cursor) gaps.push({ start_ms: cursor, ms: span.end_ms - cursor })
  return gaps
}

/** The longest of `gaps` (the first of equals), or none at `fromMs` when there is no gap. */
export function longestGap(gaps: readonly Gap[], fromMs: number): Gap {
  return gaps.reduce((longest, gap) => (gap.ms > longest.ms ? gap : longest), { ms: 0, start_ms: fromMs })
}

/** The longest part of `span` no interval of `covered` overlaps, with where it starts (0 when all covered). */
export function longestUncovered(span: Interval, covered: readonly Interval[]): Gap {
  return longestGap(uncoveredGaps(span, covered), span.start_ms)
}
