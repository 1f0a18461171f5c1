// The unit project runs its files without a process each (`isolate: false`, vitest.config.ts) and relies on its
// setup file (fresh-modules-setup.test-helpers.ts) to give every file fresh copies of our modules and a process
// without the signal listeners and environment variables an earlier file left. This runs the two files of
// fresh-modules/ in a child Vitest of the unit project with one worker, so both run in one process (the pid check
// holds it: with `isolate: true` back, this test fails and should be revisited with it). Each file leaves traces
// and checks it found none; whichever runs second fails without the setup file. The mock check bites when the
// plain file runs first (the order may vary with Vitest's cache); the evaluation count bites either way.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runVitest, SPAWN_TIMEOUT_MS, scratch } from '../vitest/child-vitest.test-helpers.ts'

test(
  'two unit files in one worker process each get fresh copies of our modules (mocks included), and neither finds what the other left on the process',
  async () => {
    const { dir, env } = await scratch()
    const pids = join(dir, 'pids.txt')
    const run = await runVitest(
      ['run', '--project', 'unit', '--maxWorkers', '1', 'src/testing/fresh-modules/'],
      {
        ...env,
        LIVE_EVALS_FRESH_MODULES_PIDS: pids,
      },
    )
    expect(run.output).toMatch(/Test Files\s+2 passed \(2\)/)
    expect(run.code).toBe(0)
    const lines = (await readFile(pids, 'utf8')).trim().split('\n')
    expect(lines.map((line) => line.split(' ')[0]).sort()).toEqual(['mocked', 'plain'])
    // One pid: the files shared a process, so the freshness above was really put to the test.
    expect(new Set(lines.map((line) => line.split(' ')[1])).size).toBe(1)
  },
  SPAWN_TIMEOUT_MS,
)
