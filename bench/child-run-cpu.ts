// The fixed CPU cost of one live-evals Vitest run: the fixture project of the integration tests (two CRAWL
// scenarios, offline), started the way they start it (node on vitest.mjs, with the compile cache the repository's
// vitest.config.ts sets up), its CPU the whole run's (main process and workers: the waited-for children of this
// process). With --before <checkout> (e.g. `git worktree add /tmp/before <commit>` with node_modules linked), the
// same run of that checkout, alternating with this one through bench/before-after.ts, so both see the same
// machine; the median of the rounds leaves out the first, cold run (it fills Vitest's and Node's caches).
// Run: npx node bench/child-run-cpu.ts [--runs 5] | npx node bench/child-run-cpu.ts --before <checkout> [--rounds 5]
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeRoot, benchRoot, compareBeforeAfter, printFigures } from './before-after.ts'
import { childrenCpuSeconds } from './children-cpu.ts'

const ROOT = path.resolve(import.meta.dirname, '..')

async function childRun(checkout: string): Promise<{ cpu: number; wall: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'live-evals-child-run-cpu-'))
  await writeFile(path.join(dir, 'empty.env'), '')
  const cpuBefore = childrenCpuSeconds()
  const started = performance.now()
  const result = spawnSync(
    process.execPath,
    [
      path.join(checkout, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'src/vitest/fixtures/vitest.config.ts',
    ],
    {
      cwd: checkout,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        CI: '1',
        NO_COLOR: '1',
        NODE_COMPILE_CACHE: path.join(ROOT, 'node_modules/.cache/node-compile-cache'),
        LIVE_EVALS_ENV_FILE: path.join(dir, 'empty.env'),
        LIVE_EVALS_RESULTS_DIR: path.join(dir, 'results'),
        OPENAI_ASSISTANT_MODE: 'responses',
      },
    },
  )
  const wall = (performance.now() - started) / 1000
  const cpu = childrenCpuSeconds() - cpuBefore
  await rm(dir, { recursive: true, force: true })
  // The fixture has one scenario that passes and one that fails by design.
  if (!/1 passed, 1 failed/.test(result.stdout))
    throw new Error(`the child run of ${checkout} went wrong:\n${result.stdout}${result.stderr}`)
  return { cpu, wall }
}

const before = beforeRoot()
if (before !== null) {
  await compareBeforeAfter(import.meta.filename, before, 5)
} else {
  const at = process.argv.indexOf('--runs')
  const runs = at < 0 ? 1 : Number(process.argv[at + 1])
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a whole number of runs, not ${process.argv[at + 1]}`)
  for (let run = 0; run < runs; run++) {
    const { cpu, wall } = await childRun(benchRoot)
    console.log(`run ${run + 1}: CPU ${cpu.toFixed(2)} s, wall ${wall.toFixed(2)} s`)
    if (run === runs - 1) printFigures({ 'CPU per child run (s)': cpu, 'wall per child run (s)': wall })
  }
}
