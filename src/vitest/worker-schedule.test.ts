// The order the sequencer hands files to the pool: longest first, with no more waiting files running at once than
// there are workers beyond the cores, played through on the files' expected wall times.
import { describe, expect, test } from 'vitest'
import { type FileEstimate, workerOrder } from './worker-schedule.test-helpers.ts'

const waiting = (file: string, wallSeconds: number): FileEstimate<string> => ({
  file,
  wallSeconds,
  waits: true,
})
const computing = (file: string, wallSeconds: number): FileEstimate<string> => ({
  file,
  wallSeconds,
  waits: false,
})

/** The most waiting files the pool runs at once when it starts `order` (each starts when a worker frees). */
function mostWaitingAtOnce(
  files: readonly FileEstimate<string>[],
  order: readonly string[],
  workers: number,
) {
  const byName = new Map(files.map((entry) => [entry.file, entry]))
  let running: { endsAt: number; waits: boolean }[] = []
  let now = 0
  let most = 0
  for (const name of order) {
    if (running.length >= workers) {
      now = Math.min(...running.map((entry) => entry.endsAt))
      const ended = running.findIndex((entry) => entry.endsAt === now)
      running = running.filter((_, index) => index !== ended)
    }
    const entry = byName.get(name) as FileEstimate<string>
    running.push({ endsAt: now + entry.wallSeconds, waits: entry.waits })
    most = Math.max(most, running.filter((candidate) => candidate.waits).length)
  }
  return most
}

describe('workerOrder', () => {
  test('four long waiting files do not run together on four workers while computing files are left', () => {
    const files = [
      waiting('replay', 90),
      waiting('drift', 70),
      waiting('round-trip', 60),
      waiting('rehearsal', 50),
      computing('bundled', 45),
      computing('sharding', 35),
      computing('explain', 30),
      computing('interrupt', 30),
      computing('own-agent', 25),
      computing('live-mode', 20),
      computing('readme', 20),
      computing('unit', 5),
    ]
    const order = workerOrder(files, 4, 2)
    expect(order.slice(0, 4)).toEqual(['replay', 'drift', 'bundled', 'sharding'])
    expect(mostWaitingAtOnce(files, order, 4)).toBe(2)
    // Longest first alone would have run all four waiting files at once.
    const longestFirst = [...files].sort((a, b) => b.wallSeconds - a.wallSeconds).map((entry) => entry.file)
    expect(mostWaitingAtOnce(files, longestFirst, 4)).toBe(4)
    expect([...order].sort()).toEqual(files.map((entry) => entry.file).sort())
  })

  test('when only waiting files are left they still run, every worker busy', () => {
    const files = [waiting('a', 10), waiting('b', 9), waiting('c', 8), computing('d', 1)]
    expect(workerOrder(files, 4, 1)).toEqual(['a', 'd', 'b', 'c'])
    expect(workerOrder(files, 4, 4)).toEqual(['a', 'b', 'c', 'd'])
  })

  test('without waiting files it is longest first, equal times in the order given', () => {
    const files = [computing('x', 1), computing('y', 3), computing('z', 1), computing('w', 3)]
    expect(workerOrder(files, 2, 1)).toEqual(['y', 'w', 'x', 'z'])
    expect(workerOrder([], 4, 2)).toEqual([])
  })
})
