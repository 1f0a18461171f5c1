// The fixed CPU cost of one live-evals Vitest run: the fixture project of the integration tests (two CRAWL
// scenarios, offline), started the way they start it (node on vitest.mjs, with the compile cache the repository's
// vitest.config.ts sets up), its CPU the whole run's (main process and workers: the waited-for children of this
// process). With --before <checkout>, the same run of another checkout (e.g. `git worktree add /tmp/before
// <commit>` with node_modules linked), alternating with this one, so both see the same machine.
// Run: npx node bench/child-run-cpu.ts [--runs 5] [--before <checkout>]
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { childrenCpuSeconds } from './children-cpu.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, before: { type: 'string' } },
})
const runs = Number(values.runs)
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number of runs, not ${values.runs}`)

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

const checkouts = values.before === undefined ? [ROOT] : [path.resolve(values.before), ROOT]
console.log(
  `child-run-cpu: ${runs} runs each of ${checkouts.join(' and ')}; ${availableParallelism()} cores, load ${loadavg()[0]?.toFixed(2)}`,
)
// One unmeasured run each first: a changed checkout's first run fills Vitest's transform cache and Node's compile cache.
for (const checkout of checkouts) await childRun(checkout)
const measured = new Map(checkouts.map((checkout) => [checkout, [] as { cpu: number; wall: number }[]]))
for (let round = 0; round < runs; round++)
  for (const checkout of checkouts) measured.get(checkout)?.push(await childRun(checkout))
const median = (numbers: number[]) =>
  [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? Number.NaN
for (const [checkout, samples] of measured) {
  const cpu = samples.map((sample) => sample.cpu)
  console.log(
    `${checkout}: CPU median ${median(cpu).toFixed(2)} s (${cpu.map((value) => value.toFixed(2)).join(' ')}), wall median ${median(samples.map((sample) => sample.wall)).toFixed(2)} s`,
  )
}
if (checkouts.length === 2) {
  const [before, after] = checkouts.map((checkout) =>
    median((measured.get(checkout) ?? []).map((sample) => sample.cpu)),
  )
  console.log(`CPU per child run, this checkout / before: ${((after ?? 0) / (before ?? 1)).toFixed(2)}`)
}
