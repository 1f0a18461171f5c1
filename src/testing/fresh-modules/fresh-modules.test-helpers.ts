// What both fixture files of the fresh-modules check do: count this file's evaluation of module-state.test-helpers.ts, and
// note the worker's pid in the file named by LIVE_EVALS_FRESH_MODULES_PIDS (set by ../fresh-modules.test.ts, so
// it can tell that the two files ran in one process). Run on their own, as unit files, they only check freshness.
import { appendFileSync } from 'node:fs'
import { evaluations } from './module-state.test-helpers.ts'

export function countThisFile(name: string): number {
  evaluations.count += 1
  const pids = process.env.LIVE_EVALS_FRESH_MODULES_PIDS
  if (pids !== undefined) appendFileSync(pids, `${name} ${process.pid}\n`)
  return evaluations.count
}
