// Interval arithmetic for the timing checks: the longest stretch of [start, end] that none of the covering
// intervals reaches (dead air), and whether a moment falls inside a window.
import type { Interval } from '../../faults/experience.ts'

/** The longest part of `span` no interval of `covered` overlaps, with where it starts (0 when all covered). */
export function longestUncovered(
  span: Interval,
  covered: readonly Interval[],
): { ms: number; start_ms: number } {
  const inside = covered
    .filter((interval) => interval.end_ms > span.start_ms && interval.start_ms < span.end_ms)
    .sort((a, b) => a.start_ms - b.start_ms)
  let longest = { ms: 0, start_ms: span.start_ms }
  let cursor = span.start_ms
  for (const interval of inside) {
    if (interval.start_ms > cursor && interval.start_ms - cursor > longest.ms) {
      longest = { ms: interval.start_ms - cursor, start_ms: cursor }
    }
    cursor = Math.max(cursor, interval.end_ms)
  }
  if (span.end_ms - cursor > longest.ms) longest = { ms: span.end_ms - cursor, start_ms: cursor }
  return longest
}
