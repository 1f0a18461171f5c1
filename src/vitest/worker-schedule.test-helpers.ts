// The order the repository's sequencer hands test files to Vitest's pool, which starts the next file in that order
// whenever a worker frees. The unit run has two workers more than cores so that files that mostly wait (on a
// real-time call, a child process, a recording played on its clock) leave the cores to files that compute. Longest
// first alone started four waiting files together: for the first minute and a half the cores sat up to 48% idle
// (bench/test-cpu.ts --timeline, in the order of Vitest's own timings). Here the pool is played through on the
// recorded wall times, and a freed worker takes the longest file left, except that no more files that wait run at
// once than there are extra workers: then it takes the longest file that computes. The real run differs from the
// recorded times; the order only has to keep the waiting files spread out.

export interface FileEstimate<T> {
  readonly file: T
  /** The wall time the file is expected to take (seconds). */
  readonly wallSeconds: number
  /** Whether it mostly waits rather than computes (its CPU time under a third of its wall time). */
  readonly waits: boolean
}

/** A file waits when its CPU time was under this share of its wall time. */
export const WAITING_CPU_SHARE = 1 / 3

/**
 * The files in the order to start them on `workers` workers, letting at most `waitingSlots` waiting files run at
 * once while a computing file is left. Ties keep the order given.
 */
export function workerOrder<T>(
  files: readonly FileEstimate<T>[],
  workers: number,
  waitingSlots: number,
): T[] {
  // Longest first, stable: Array.prototype.sort keeps equal elements in their order.
  const left = [...files].sort((a, b) => b.wallSeconds - a.wallSeconds)
  const running: { endsAt: number; waits: boolean }[] = []
  const order: T[] = []
  let now = 0
  while (left.length > 0) {
    if (running.length >= Math.max(1, workers)) {
      // The next worker to free: the file that ends first.
      running.sort((a, b) => a.endsAt - b.endsAt)
      now = (running.shift() as { endsAt: number }).endsAt
      continue
    }
    const waitingNow = running.filter((entry) => entry.waits).length
    // The longest computing file when the waiting slots are full (-1 when none is left: the longest file then).
    const computing = waitingNow >= waitingSlots ? left.findIndex((entry) => !entry.waits) : -1
    const [next] = left.splice(Math.max(computing, 0), 1) as [FileEstimate<T>]
    order.push(next.file)
    running.push({ endsAt: now + next.wallSeconds, waits: next.waits })
  }
  return order
}
