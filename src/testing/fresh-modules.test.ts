// The unit project runs its files without a process each (`isolate: false`, vitest.config.ts) and relies on its
// setup file (fresh-modules-setup.test-helpers.ts) to give every file fresh copies of our modules. This runs the
// two files of fresh-modules/ in a child Vitest of the unit project with one worker, so both run in one process,
// and each checks that it evaluated our module state itself and that a mock reaches a module the other file may
// have loaded unmocked. Without the setup file, whichever file runs second fails.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runVitest, SPAWN_TIMEOUT_MS, scratch } from '../vitest/child-vitest.ts'

test(
  'two unit files in one worker process each get fresh copies of our modules, mocks included',
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
