// Goal 5 of issue 24 as it is stated: `npm test` from a fresh clone after `npm ci`, its wall time and CPU,
// and how the time splits between its steps (typecheck, lint, the unit project, the evaluation suites). The
// measured tree's last commit is cloned once into the temp folder and installed with `npm ci` (not timed: the
// goal starts after it); before every round the clone is put back to a fresh clone's state (`git clean -fdx`
// outside node_modules, and the caches that runs leave in node_modules removed: Node's compile cache,
// Vitest's module cache and its results cache), so each round starts as CI does. Those caches barely matter:
// a unit run of f16f300 without them took 374 s and 655 CPU s, the next one with the caches it left 378 s and
// 665 CPU s (2026-12-04, one pair). Uncommitted changes are not measured.
// Run: npx node bench/npm-test.ts [--rounds 3] [--keep-caches]
//      npx node bench/npm-test.ts --before <checkout> [--rounds 2] [--keep-caches]
//   (--keep-caches: the caches earlier runs left in the clone stay, as for a developer's second run;
//   --before: that checkout's last commit alternating with this one's, through before-after.ts)
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, writeFileSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { testChildEnvironment } from '../src/testing/child-environment.test-helpers.ts'
import { beforeRoot, benchArguments, benchRoot, compareBeforeAfter, printFigures } from './before-after.ts'
import { childrenCpuSeconds } from './children-cpu.ts'
import { median } from './median.ts'
import { stepClock } from './npm-test/steps.ts'

const USAGE =
  'usage: npx node bench/npm-test.ts [--rounds N] [--keep-caches]\n' +
  '       npx node bench/npm-test.ts --before <checkout> [--rounds N] [--keep-caches]'

/** A bad argument or a failed run: one message and the usage line, not a stack trace. */
function stop(message: string, code: number): never {
  console.error(`npm-test: ${message}\n${USAGE}`)
  process.exit(code)
}

/** What runs leave in node_modules that a fresh clone does not have. */
const CACHES = ['node_modules/.cache', 'node_modules/.vitest-cache', 'node_modules/.vite']

function git(args: string[], cwd: string): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${result.stderr.trim()}`)
  return result.stdout.trim()
}

/** Runs `command` in `cwd`, its output to `log`; resolves with its exit code, wall time and steps. */
function runLogged(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string) {
  const clock = stepClock()
  const startedAt = performance.now()
  const elapsed = () => (performance.now() - startedAt) / 1000
  const file = createWriteStream(log)
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      clock.line(line, elapsed())
      file.write(`${line}\n`)
    })
  }
  return new Promise<{ code: number | null; wall: number; steps: ReturnType<typeof clock.steps> }>(
    (resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code) => {
        const wall = elapsed()
        file.end(() => resolve({ code, wall, steps: clock.steps(wall) }))
      })
    },
  )
}

/** A clone of the tree's last commit with its packages installed, kept between runs of this bench. */
async function installedClone(
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<{ clone: string; commit: string }> {
  const commit = git(['rev-parse', 'HEAD'], root)
  if (git(['status', '--porcelain', '--untracked-files=no'], root) !== '')
    console.log(
      `npm-test: ${root} has uncommitted changes; this measures its last commit, ${commit.slice(0, 12)}`,
    )
  const clone = path.join(tmpdir(), 'live-evals-bench', 'npm-test', commit.slice(0, 12))
  const installed = path.join(clone, 'node_modules', '.npm-test-installed')
  if (existsSync(installed)) return { clone, commit }
  await rm(clone, { recursive: true, force: true })
  await mkdir(path.dirname(clone), { recursive: true })
  git(['clone', '-q', '--no-checkout', root, clone], path.dirname(clone))
  git(['checkout', '-q', '--detach', commit], clone)
  const log = path.join(path.dirname(clone), `${commit.slice(0, 12)}-npm-ci.log`)
  console.log(`npm-test: npm ci in ${clone} (once per commit; log ${log})`)
  const ci = await runLogged('npm', ['ci'], clone, env, log)
  if (ci.code !== 0) throw new Error(`npm ci in ${clone} failed (exit ${ci.code}): see ${log}`)
  writeFileSync(installed, `${commit}\n`)
  return { clone, commit }
}

/** One `npm test` in the clone, from a fresh clone's state unless the caches are kept. */
async function round(clone: string, env: NodeJS.ProcessEnv, keepCaches: boolean, label: string) {
  git(['clean', '-fdxq', '-e', 'node_modules'], clone)
  if (!keepCaches)
    for (const cache of CACHES) await rm(path.join(clone, cache), { recursive: true, force: true })
  const log = path.join(path.dirname(clone), `${path.basename(clone)}-${label.replaceAll(' ', '-')}.log`)
  const cpuBefore = childrenCpuSeconds()
  const run = await runLogged('npm', ['test'], clone, env, log)
  const cpu = childrenCpuSeconds() - cpuBefore
  if (run.code !== 0) throw new Error(`npm test failed in ${clone} (exit ${run.code}): see ${log}`)
  // The `test` banner only starts the others.
  const steps = run.steps.filter((step) => step.script !== 'test')
  const split = steps.map((step) => `${step.script} ${step.seconds.toFixed(1)}`).join(', ')
  console.log(
    `${label}: npm test ${run.wall.toFixed(1)} s wall, ${cpu.toFixed(0)} CPU s (${split}); log ${log}`,
  )
  const stepSeconds = Object.fromEntries(steps.map((step) => [`${step.script} s`, step.seconds]))
  return { 'npm test wall s': run.wall, 'npm test CPU s': cpu, ...stepSeconds }
}

function roundsOf(args: string[]): number {
  const at = args.indexOf('--rounds')
  if (at < 0) return 1
  const rounds = Number(args[at + 1])
  if (!Number.isInteger(rounds) || rounds < 1) stop('--rounds needs a whole number of 1 or more', 2)
  return rounds
}

let before: string | null = null
try {
  before = beforeRoot()
} catch (error) {
  stop((error as Error).message, 2)
}
const args = benchArguments()
const keepCaches = args.includes('--keep-caches')
const unknown = args.filter((arg) => arg !== '--keep-caches')
if (unknown.length > 0) stop(`unknown argument ${unknown.join(' ')}`, 2)
if (before !== null) {
  await compareBeforeAfter(import.meta.filename, before, 2).catch((error: unknown) =>
    stop((error as Error).message, 1),
  )
  process.exit()
}
const rounds = roundsOf(process.argv)
// The environment a test gives a process it starts (nothing of Vitest, live-evals or OpenAI settings), without
// npx's own variables or a compile cache of the shell's, and as CI has it: no heap option (the repository's
// vitest.config.ts adds its own to the test processes only), CI set.
const env = testChildEnvironment({
  alsoCleared: /^(npm_|NODE_COMPILE_CACHE$)/,
  extra: { CI: 'true', NODE_OPTIONS: undefined },
})
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
try {
  const { clone, commit } = await installedClone(benchRoot, env)
  console.log(
    `npm-test: ${commit.slice(0, 12)} of ${benchRoot}, ${rounds} round(s)` +
      `${keepCaches ? ', caches kept from earlier runs' : ', fresh-clone state each'}; ` +
      `${availableParallelism()} cores, load ${load()}`,
  )
  const figures: Array<Record<string, number>> = []
  for (let index = 0; index < rounds; index++) {
    figures.push(await round(clone, env, keepCaches, `round ${index + 1}`))
  }
  const middle = (name: string) => median(figures.map((figure) => figure[name] ?? Number.NaN))
  if (rounds > 1) {
    const walls = figures.map((figure) => (figure['npm test wall s'] as number).toFixed(1)).join(', ')
    console.log(
      `npm-test: median of ${rounds} rounds ${middle('npm test wall s').toFixed(1)} s wall (${walls}), ` +
        `${middle('npm test CPU s').toFixed(0)} CPU s`,
    )
  }
  console.log(`npm-test: load at the end ${load()}`)
  // A before/after run gives each child one round; alone, the medians of the rounds.
  printFigures(Object.fromEntries(Object.keys(figures[0] ?? {}).map((name) => [name, middle(name)])))
} catch (error) {
  stop((error as Error).message, 1)
}
