// Interval arithmetic over one shared timeline (milliseconds). Voiced intervals are unioned only when they touch or
// overlap, so a 1 ms gap between two intervals stays a gap.

export interface Interval {
  start_ms: number
  end_ms: number
}

/** Sorted, merged intervals; empty or inverted intervals are dropped. */
export function unionIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals
    .filter((item) => item.end_ms > item.start_ms)
    .sort((a, b) => a.start_ms - b.start_ms)
  const merged: Interval[] = []
  for (const item of sorted) {
    const last = merged.at(-1)
    if (last !== undefined && item.start_ms <= last.end_ms) {
      last.end_ms = Math.max(last.end_ms, item.end_ms)
    } else {
      merged.push({ start_ms: item.start_ms, end_ms: item.end_ms })
    }
  }
  return merged
}

export function totalDuration(intervals: readonly Interval[]): number {
  return unionIntervals(intervals).reduce((sum, item) => sum + (item.end_ms - item.start_ms), 0)
}

/** Parts of `base` not covered by `cut`. */
export function subtractIntervals(base: readonly Interval[], cut: readonly Interval[]): Interval[] {
  const cuts = unionIntervals(cut)
  const remaining: Interval[] = []
  for (const item of unionIntervals(base)) {
    let cursor = item.start_ms
    for (const piece of cuts) {
      if (piece.end_ms <= cursor || piece.start_ms >= item.end_ms) continue
      if (piece.start_ms > cursor) remaining.push({ start_ms: cursor, end_ms: piece.start_ms })
      cursor = Math.max(cursor, piece.end_ms)
    }
    if (cursor < item.end_ms) remaining.push({ start_ms: cursor, end_ms: item.end_ms })
  }
  return remaining
}
