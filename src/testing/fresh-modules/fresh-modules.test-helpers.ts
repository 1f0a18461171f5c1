// What both fixture files of the fresh-modules check do: note what the file found left on the process (our module
// state's evaluation count, an environment variable and a signal listener the other file leaves behind on
// purpose), leave the same behind itself, and note the worker's pid in the file named by
// LIVE_EVALS_FRESH_MODULES_PIDS (set by ../fresh-modules.test.ts, so it can tell that the two files ran in one
// process). Run on their own, as unit files, they check the same within whichever worker runs them.
import { appendFileSync } from 'node:fs'
import { evaluations } from './module-state.test-helpers.ts'

const LEFT_BY = 'LIVE_EVALS_FRESH_MODULES_LEFT_BY'

export interface FoundOnArrival {
  /** Evaluations of module-state.test-helpers.ts counted in this file's copy of it, this file's included. */
  evaluations: number
  /** The environment variable a file leaves behind; undefined when none was left for this one. */
  environmentLeftBy: string | undefined
  /** Listeners a file leaves on SIGHUP; 0 when none was left for this one. */
  listenersLeft: number
}

export function arriveAndLeaveTraces(name: string): FoundOnArrival {
  evaluations.count += 1
  const found = {
    evaluations: evaluations.count,
    environmentLeftBy: process.env[LEFT_BY],
    listenersLeft: process.listeners('SIGHUP').filter((listener) => listener.name === 'leftByAFixtureFile')
      .length,
  }
  process.env[LEFT_BY] = name
  process.on('SIGHUP', function leftByAFixtureFile() {})
  const pids = process.env.LIVE_EVALS_FRESH_MODULES_PIDS
  if (pids !== undefined) appendFileSync(pids, `${name} ${process.pid}\n`)
  return found
}

export const FRESH: FoundOnArrival = { evaluations: 1, environmentLeftBy: undefined, listenersLeft: 0 }
