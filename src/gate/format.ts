// How the gate's Markdown summary and the HTML report write numbers, so both say the same thing about the same
// value. Unknown is a dash, never 0.

import type { MetricUnit } from '../reporting/row-metrics.ts'

export const UNKNOWN_TEXT = '–'

export const formatMs = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : `${Math.round(value)} ms`
export const formatRatio = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : value.toFixed(3)
export const formatPercent = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : `${(value * 100).toFixed(1)}%`

/** A count per row (entities, words); a mean over rows keeps two places. */
export const formatCount = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : String(Math.round(value * 100) / 100)

/** A metric's value in its unit: milliseconds, a ratio to three places, or a count. */
export const formatInUnit = (unit: MetricUnit, value: number | null | undefined) =>
  unit === 'ms' ? formatMs(value) : unit === 'count' ? formatCount(value) : formatRatio(value)

/** A difference in a metric's unit, with its sign (`+12 ms`, `-0.050`); a dash when unknown. */
export function formatDeltaInUnit(unit: MetricUnit, delta: number | null): string {
  const text = formatInUnit(unit, delta)
  return delta !== null && delta > 0 ? `+${text}` : text
}

/** One metric's spread over repeated trials: `812 ms ± 40 ms [760 ms–871 ms], n=3`; a dash when unmeasured. */
export function formatSpread(
  unit: MetricUnit,
  spread: { n: number; mean: number | null; stdev: number | null; min: number | null; max: number | null },
): string {
  if (spread.n === 0) return `${UNKNOWN_TEXT} (n=0)`
  const stdev = spread.stdev === null ? '' : ` ± ${formatInUnit(unit, spread.stdev)}`
  return `${formatInUnit(unit, spread.mean)}${stdev} [${formatInUnit(unit, spread.min)}–${formatInUnit(unit, spread.max)}], n=${spread.n}`
}
