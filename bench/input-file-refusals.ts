// Input fault matrix (issue 23, point 2): how long each kind of user-named file takes to refuse a path that is a
// device (/dev/zero) or a FIFO nobody writes to, read through its real entry point
// (src/inputs/input-file-faults.test-helpers.ts), and how much the process grew meanwhile. Before the bounded
// reader, /dev/zero grew a process by gigabytes and a FIFO waited forever; now each is refused on sight.
// Figures are medians of REPEATS runs in this process; the machine may be shared, so read them as orders of
// magnitude (a refusal is milliseconds, not a read).
// Run: npx node bench/input-file-refusals.ts
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { inputFaultCases, makeFifo } from '../src/inputs/input-file-faults.test-helpers.ts'
import { median } from './median.ts'

const REPEATS = 5

const scratch = await mkdtemp(path.join(tmpdir(), 'live-evals-input-bench-'))
try {
  const fifo = makeFifo(scratch)
  const cases = inputFaultCases(() => scratch)
  const rssBefore = process.memoryUsage().rss
  console.log('input kind                              /dev/zero ms   FIFO ms')
  for (const [name, read] of Object.entries(cases)) {
    const medians: string[] = []
    for (const file of ['/dev/zero', fifo]) {
      const times: number[] = []
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const start = performance.now()
        await read(file)
        times.push(performance.now() - start)
      }
      medians.push(median(times).toFixed(2).padStart(10))
    }
    console.log(`${name.padEnd(38)}${medians.join('   ')}`)
  }
  const grownMiB = (process.memoryUsage().rss - rssBefore) / (1024 * 1024)
  console.log(
    `\nprocess RSS grew ${grownMiB.toFixed(1)} MiB over all ${REPEATS * 2 * Object.keys(cases).length} refusals`,
  )
} finally {
  await rm(scratch, { recursive: true, force: true })
}
