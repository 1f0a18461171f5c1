// A real-time run measures milliseconds, and every garbage collection stops the event loop: the audio frames due
// meanwhile go out that late. So a real-time project's forked workers start with V8's heap sized for short pauses:
// - The young generation capped at 4 MB a semi-space. V8 sizes it by the heap limit, and on a machine with
//   gigabytes of memory it grows to tens of MB, so each scavenge stopped the loop for 10-13 ms. Capped, scavenges
//   come more often and each copies less.
// - The old generation grown by 200 % after a full collection (a factor of 3) instead of V8's own factor. A RUN
//   call's log no longer keeps its output audio (LiveSessionOptions.keepOutputAudio), so the live heap stays small,
//   and with V8's factor its limit sat so close that 32 calls needed 17-21 mark-compacts instead of 2-4.
// `bench/run-realtime.ts --conversations 32`, p99 relay lateness while all 32 calls were under way (timers-only p99
// of the same run in brackets), one machine, alternating runs: semi-space 8 MB and the audio kept, 5.04 and 3.91 ms
// (1.32, 1.35); the audio dropped with the growing factor, 3.29 and 2.76 ms (1.49, 1.27); with the semi-space at
// 4 MB as well, 2.49 and 2.09 ms (1.46, 1.11), at 2-4 mark-compacts against 5 and the scavenges' total pause
// 196-237 ms against 325-365 ms. Not worker threads (a V8 flag is per process, and Node refuses it in a worker's
// execArgv), not the virtual clock (no frame can be late there), and never over a size the project already gives.
import type { RunClock } from './run-line.ts'

/** Each flag with the pattern of the family it belongs to: a project's own flag of that family wins. */
const HEAP_FLAGS: ReadonlyArray<{ flag: string; family: RegExp }> = [
  {
    flag: '--max-semi-space-size=4',
    family: /^--(max-semi-space-size|semi-space-growth-factor|min-semi-space-size)(=|$)/,
  },
  { flag: '--heap-growing-percent=200', family: /^--heap-growing-percent(=|$)/ },
]
export const REAL_TIME_HEAP_FLAGS: readonly string[] = HEAP_FLAGS.map(({ flag }) => flag)
/** Pools whose workers are processes of their own, started with execArgv. */
const PROCESS_POOLS = new Set(['forks', 'vmForks'])

export interface WorkerProcessConfig {
  pool: string
  execArgv: string[]
}

// Marks the flags this added to a config, whichever copy of this module added them: the plugin's (from the config)
// at start, the global setup's at each watch rerun, which sizes the heap again from what the settings now say.
const ADDED_BY_LIVE_EVALS = Symbol.for('live-evals.real-time-heap-flags')

type SizedConfig = WorkerProcessConfig & { [ADDED_BY_LIVE_EVALS]?: readonly string[] }

/**
 * Gives a real-time project's worker processes the real-time heap flags (see above), and takes back the ones
 * it gave before when the project no longer runs in real time; what the project passes itself is never touched.
 */
export function sizeRealTimeHeap(config: WorkerProcessConfig, clock: RunClock): void {
  const sized = config as SizedConfig
  const before = sized[ADDED_BY_LIVE_EVALS] ?? []
  const own = config.execArgv.filter((argument) => !before.includes(argument))
  const realTime = clock === 'real_time' && PROCESS_POOLS.has(config.pool)
  const missing = HEAP_FLAGS.filter(({ family }) => !own.some((argument) => family.test(argument)))
  const added = realTime ? missing.map(({ flag }) => flag) : []
  sized[ADDED_BY_LIVE_EVALS] = added
  if (before.length === 0 && added.length === 0) return
  config.execArgv = [...own, ...added]
}
