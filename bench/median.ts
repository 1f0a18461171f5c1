// The median the benches report (of rounds, of repeats): the middle value, or the mean of the two middle ones.
// NaN for no values, so a bench with nothing measured prints NaN rather than a made-up figure.
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length / 2
  return Number.isInteger(middle)
    ? ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
    : (sorted[Math.floor(middle)] as number)
}
