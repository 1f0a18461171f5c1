// How the gate's Markdown summary and the HTML report write numbers, so both say the same thing about the same
// value. Unknown is a dash, never 0.

export const UNKNOWN_TEXT = '–'

export const formatMs = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : `${Math.round(value)} ms`
export const formatRatio = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : value.toFixed(3)
export const formatPercent = (value: number | null | undefined) =>
  value === null || value === undefined ? UNKNOWN_TEXT : `${(value * 100).toFixed(1)}%`
