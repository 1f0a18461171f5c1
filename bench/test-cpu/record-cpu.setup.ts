// A setup file for bench/test-cpu.ts: after each test file's own hooks, appends one JSON line to the file named
// by LIVE_EVALS_TEST_CPU_OUT with the test file, this worker's pid, its CPU since it started (user+system) and
// the CPU of the child processes it waited for (child Vitest runs, packers, servers), read from /proc/self/stat,
// the wall time since the worker started, and the clock times (ms since the epoch) of the file's first hook and of
// its end, for the run's timeline (the file's imports, before its first hook, fall outside it). The unit project
// runs file after file in one worker process (isolate: false), so the figures are cumulative per pid;
// bench/test-cpu.ts subtracts the earlier lines of the same pid to get each file's own.
import { appendFileSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect } from 'vitest'

const out = process.env.LIVE_EVALS_TEST_CPU_OUT
const TICKS_PER_SECOND = 100

function cpuSeconds(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  // Fields after the command name (which may hold spaces): state is index 0, utime 11, stime 12, cutime 13, cstime 14.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number)
  return {
    self: ((fields[11] ?? 0) + (fields[12] ?? 0)) / TICKS_PER_SECOND,
    children: ((fields[13] ?? 0) + (fields[14] ?? 0)) / TICKS_PER_SECOND,
  }
}

let file: string | undefined
let startedAt = 0
beforeAll(() => {
  file = expect.getState().testPath
  startedAt = Date.now()
})
afterAll(() => {
  if (out === undefined || file === undefined) return
  const cpu = cpuSeconds()
  const line = {
    file,
    pid: process.pid,
    ...cpu,
    wall: performance.now() / 1000,
    startedAt,
    endedAt: Date.now(),
  }
  appendFileSync(out, `${JSON.stringify(line)}\n`)
})
