// A real-time run measures milliseconds, and V8 sizes the young generation by the heap limit: on a machine with
// gigabytes of memory a worker's semi-spaces grow to tens of MB, and each scavenge then stops the event loop for
// 10-13 ms, so the audio frames due meanwhile go out that late. Capped at 8 MB, scavenges come seven times as
// often and take a third to a half as long, at the same CPU: `bench/run-realtime.ts --conversations 32`, three
// alternating rounds, relay lateness p99 2.85-3.05 ms against 3.67-4.84 ms, longest scavenge 4.5-7.6 ms against
// 10.1-12.9 ms. So a real-time project's forked workers start with the cap. Not worker threads (a V8 flag is per
// process, and Node refuses it in a worker's execArgv), not the virtual clock (no frame can be late there), and
// never over a young-generation size the project already gives.
import type { RunClock } from './run-line.ts'

export const REAL_TIME_SEMI_SPACE_FLAG = '--max-semi-space-size=8'
/** Pools whose workers are processes of their own, started with execArgv. */
const PROCESS_POOLS = new Set(['forks', 'vmForks'])
const YOUNG_GENERATION_FLAG = /^--(max-semi-space-size|semi-space-growth-factor|min-semi-space-size)(=|$)/

export interface WorkerProcessConfig {
  pool: string
  execArgv: string[]
}

/** Adds the young-generation cap to a real-time project's worker processes (see above); otherwise no change. */
export function limitYoungGeneration(config: WorkerProcessConfig, clock: RunClock): void {
  if (clock !== 'real_time' || !PROCESS_POOLS.has(config.pool)) return
  if (config.execArgv.some((argument) => YOUNG_GENERATION_FLAG.test(argument))) return
  config.execArgv = [...config.execArgv, REAL_TIME_SEMI_SPACE_FLAG]
}
