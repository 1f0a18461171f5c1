// Where the unit tests' time goes, per test file: CPU (the file's own worker process, and apart from it the
// child processes it waited for: child Vitest runs, the package build, servers) and wall time. CPU seconds
// barely move with the machine's load, so they are the figure to compare on a shared machine; wall time says
// which files wait (on the clock, on a child) rather than compute.
// Run: npx node bench/test-cpu.ts [--top 40] [--json out.json] [--durations src/vitest/test-durations.test.json]
//        [--timeline] [vitest filters or files...]
//   (runs `vitest run --project unit` with bench/test-cpu/record-cpu.setup.ts added; extra arguments are passed
//   to Vitest, e.g. a folder, `--maxWorkers 1`, or `--no-cache` for a fresh clone's order; --durations writes each
//   file's wall and CPU time, 2 s and more, for the sequencer that orders the files by them:
//   src/vitest/slow-files-first.test-helpers.ts; the file's hand-set `pinned` entries are kept; --timeline prints
//   the cores' idle share and the running files for every 20 s of the run: test-cpu/timeline.ts)
//      npx node bench/test-cpu.ts --before <checkout> [--rounds 2] [vitest filters or files...]
//   (the unit run of that checkout, with its own bench/test-cpu/vitest.config.ts, alternating with this one's
//   through before-after.ts: the whole run's CPU and wall time, before and after, in one run on one machine)
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import {
  measuredDurations,
  readTestDurations,
  TestDurationsSchema,
} from '../src/vitest/test-durations.test-helpers.ts'
import { beforeRoot, benchArguments, benchRoot, compareBeforeAfter, printFigures } from './before-after.ts'
import { childrenCpuSeconds } from './children-cpu.ts'
import { sampleCores, timelineLines } from './test-cpu/timeline.ts'

// The measured tree: this checkout, or the one before-after.ts names with --root (its own config, its own tests).
const ROOT = benchRoot
const CONFIG = path.join(ROOT, 'bench', 'test-cpu', 'vitest.config.ts')

interface Line {
  file: string
  pid: number
  self: number
  children: number
  wall: number
  startedAt: number
  endedAt: number
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name)
  if (at < 0) return undefined
  const [, value] = args.splice(at, 2)
  if (value === undefined) throw new Error(`${name} needs a value`)
  return value
}

/** Removes a flag without a value from `args`; whether it was there. */
function flag(args: string[], name: string): boolean {
  const at = args.indexOf(name)
  if (at >= 0) args.splice(at, 1)
  return at >= 0
}

const USAGE =
  'usage: npx node bench/test-cpu.ts [--top N] [--json <file>] [--durations <file>] [--timeline] ' +
  '[--before <checkout> [--rounds N]] [vitest filters or files...]'

/** A bad argument or a failed before/after round: one message and the usage line, not a stack trace. */
function stop(error: unknown, code: number): never {
  console.error(`test-cpu: ${(error as Error).message}\n${USAGE}`)
  process.exit(code)
}

let before: string | null = null
try {
  before = beforeRoot()
  // Both trees' runs would write the same file, each over the last: the file would hold one run of one tree.
  const written = ['--json', '--durations'].filter((name) => process.argv.includes(name))
  if (before !== null && written.length > 0)
    throw new Error(`${written.join(' and ')} with --before: run it alone`)
} catch (error) {
  stop(error, 2)
}
if (before !== null) {
  await compareBeforeAfter(import.meta.filename, before, 2).catch((error: unknown) => stop(error, 1))
  process.exit()
}
const args = benchArguments()
let top = 40
let jsonOut: string | undefined
let durationsOut: string | undefined
let timeline = false
try {
  top = Number(option(args, '--top') ?? '40')
  if (!Number.isInteger(top) || top < 0) throw new Error('--top needs a whole number')
  jsonOut = option(args, '--json')
  durationsOut = option(args, '--durations')
  timeline = flag(args, '--timeline')
} catch (error) {
  stop(error, 2)
}
// The hand-set entries of the durations file (its `pinned`, with their reason) are kept as they are: a measurement
// would drop them. Read before the run, so a broken file stops the bench now rather than after it.
let durationsBefore = TestDurationsSchema.parse({})
try {
  if (durationsOut !== undefined && existsSync(durationsOut))
    durationsBefore = readTestDurations(durationsOut)
} catch (error) {
  stop(error, 2)
}
const folder = await mkdtemp(path.join(tmpdir(), 'live-evals-test-cpu-'))
const out = path.join(folder, 'cpu.jsonl')
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
console.log(
  `test-cpu: vitest run --project unit ${args.join(' ')}; ${availableParallelism()} cores, load ${load()}`,
)
const startedAt = performance.now()
const runStartedAt = Date.now()
// Only when asked: /proc/stat every second for the whole run.
const stopSampling = timeline ? sampleCores() : () => []
const code = await new Promise<number | null>((resolve) => {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      CONFIG,
      '--project',
      'unit',
      ...args,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, LIVE_EVALS_TEST_CPU_OUT: out },
    },
  )
  // Vitest's own summary lines only: the per-file lines are in the table below.
  child.stdout.setEncoding('utf8')
  let pending = ''
  child.stdout.on('data', (chunk: string) => {
    pending += chunk
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: Vitest colours its lines
      if (!/^\s*[✓↓]/.test(line.replace(/\u001b\[[0-9;]*m/g, ''))) process.stdout.write(`${line}\n`)
    }
  })
  child.on('close', resolve)
})
const wallSeconds = (performance.now() - startedAt) / 1000
const coreSamples = stopSampling()
const totalCpu = childrenCpuSeconds()
const lines: Line[] = (await readFile(out, 'utf8').catch(() => ''))
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Line)
await rm(folder, { recursive: true, force: true })

// A reused worker (no isolation) reports running totals: subtract its previous line.
const previous = new Map<number, Line>()
const files = lines.map((line) => {
  const before = previous.get(line.pid)
  previous.set(line.pid, line)
  return {
    file: path.relative(ROOT, line.file),
    self: line.self - (before?.self ?? 0),
    children: line.children - (before?.children ?? 0),
    wall: line.wall - (before?.wall ?? 0),
    startedAt: line.startedAt,
    endedAt: line.endedAt,
  }
})
// Before the table: the timeline is long, and the table's totals are what a reader looks for last.
if (timeline) {
  console.log('\nthe run over time (files named: those running through most of the stretch)')
  for (const line of timelineLines(runStartedAt, coreSamples, files)) console.log(line)
}
files.sort((a, b) => b.self + b.children - (a.self + a.children))
const sum = (pick: (file: (typeof files)[number]) => number) =>
  files.reduce((total, file) => total + pick(file), 0)
console.log(
  `\n${'CPU s'.padStart(7)} ${'own'.padStart(7)} ${'child'.padStart(7)} ${'wall s'.padStart(7)}  file`,
)
for (const file of files.slice(0, top)) {
  console.log(
    `${(file.self + file.children).toFixed(1).padStart(7)} ${file.self.toFixed(1).padStart(7)} ` +
      `${file.children.toFixed(1).padStart(7)} ${file.wall.toFixed(1).padStart(7)}  ${file.file}`,
  )
}
const perFile = sum((file) => file.self + file.children)
console.log(
  `\n${files.length} files: ${perFile.toFixed(0)} CPU s in test workers (${sum((f) => f.self).toFixed(0)} own, ` +
    `${sum((f) => f.children).toFixed(0)} in their children), ${sum((f) => f.wall).toFixed(0)} s of worker wall time`,
)
console.log(
  `whole run: ${totalCpu.toFixed(0)} CPU s (so ${(totalCpu - perFile).toFixed(0)} s in Vitest's main process: ` +
    `transforms, global setup, reporting), ${wallSeconds.toFixed(0)} s wall; exit ${code}; load after ${load()}`,
)
// Which limit the run is up against: near 100% busy cores, only less CPU makes it shorter; workers busy the whole
// run with cores to spare, more workers (or fewer waits) would.
console.log(
  `cores busy ${((100 * totalCpu) / (wallSeconds * availableParallelism())).toFixed(0)}% of the run ` +
    `(${availableParallelism()} cores); workers busy ${(sum((f) => f.wall) / wallSeconds).toFixed(1)} on average`,
)
printFigures({
  'unit run CPU s': totalCpu,
  'unit run wall s': wallSeconds,
  "test files' own CPU s": sum((file) => file.self),
  "test files' children's CPU s": sum((file) => file.children),
})
if (jsonOut !== undefined) {
  await writeFile(jsonOut, JSON.stringify({ wallSeconds, totalCpu, files }, null, 2))
}
if (durationsOut !== undefined) {
  const document = measuredDurations(files, durationsBefore)
  await writeFile(durationsOut, `${JSON.stringify(document, null, 2)}\n`)
}
process.exitCode = code ?? 1
