// The bundled fault suite with faults off (LIVE_EVALS_FAULTS=none), in a child Vitest: every scenario there is
// written for its own fault profile, so each test is skipped with its reason, none fails, no row is written, and
// the run's last line says how many and why. Before, its declared expected failures failed (their rows passed
// without the fault) and the scenarios whose expectation is the fault's outcome failed on it.
import { rm } from 'node:fs/promises'
import { afterAll, expect, test } from 'vitest'
import {
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../vitest/child-vitest.test-helpers.ts'

let dir = ''
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

test(
  'with faults off the fault suite is skipped, saying why, and nothing fails',
  async () => {
    const space = await scratch()
    dir = space.dir
    const run = await runVitest(['run', '--project', 'run', 'specs/run/faults.spec.ts'], {
      ...space.env,
      LIVE_EVALS_MODE: 'offline',
      LIVE_EVALS_FAULTS: 'none',
    })
    expect(run.code, run.output.slice(-3000)).toBe(0)
    expect(run.output).toMatch(/Tests\s+22 skipped \(22\)/)
    expect(run.output).toContain('0 passed, 0 failed')
    expect(run.output).toMatch(
      /22 skipped: run_fault_001_booking_backend_down is written for fault profile backend-down .*execution\.faults = "none" \(LIVE_EVALS_FAULTS\) turns it off/,
    )
    expect(await runDirectoriesIn(`${dir}/results`).catch(() => [])).toEqual([])
  },
  SPAWN_TIMEOUT_MS,
)
