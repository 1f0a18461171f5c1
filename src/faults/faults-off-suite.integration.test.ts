// The bundled fault suite with faults off (execution.faults = "none", the key LIVE_EVALS_FAULTS sets), in a child
// Vitest: every scenario there is written for its own fault profile, so each test is skipped with its reason, none
// fails, no row is written, and the run's closing lines say how many and why. Before, its declared expected
// failures failed (their rows passed without the fault) and the scenarios whose expectation is the fault's outcome
// failed on it. The suite runs as the project run-faults-off of the shared run of the fixture projects
// (src/vitest/fixtures/together, its config.toml src/vitest/fixtures/faults-off/run.toml).
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runDirectoriesIn, SPAWN_TIMEOUT_MS } from '../vitest/child-vitest.test-helpers.ts'
import { fixtureProjectPart } from '../vitest/fixture-projects.test-helpers.ts'

test(
  'with faults off the fault suite is skipped, saying why, and nothing fails',
  async () => {
    const { run, files, tests } = await fixtureProjectPart('faults-off')
    expect([...files.keys()], run.output.slice(-3000)).toEqual(['faults.spec.ts'])
    expect(files.get('faults.spec.ts')?.status).toBe('passed')
    expect(tests.map((test) => test.status)).toEqual(Array(22).fill('skipped'))
    expect(run.output).toMatch(
      /22 skipped: run_fault_001_booking_backend_down is written for fault profile backend-down .*execution\.faults = "none" \(LIVE_EVALS_FAULTS\) turns it off/,
    )
    // No RUN row anywhere: the run folder the suite reserved is removed unused (the other projects are CRAWL and WALK).
    const results = await runDirectoriesIn(join(run.dir, 'results'))
    expect(results.filter((name) => name.startsWith('run_'))).toEqual([])
  },
  SPAWN_TIMEOUT_MS,
)
