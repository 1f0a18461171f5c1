// Before/after in one run, for the speed benches (issue 24): the machine is shared, so a figure is only
// comparable with one measured minutes apart on the same load. A bench that accepts `--before <dir>` (a
// checkout of the previous commit with its node_modules, e.g. `git worktree add /tmp/speed-before <commit>`)
// runs itself as child processes, alternately against that tree's src/ and this one's (before, after,
// before, after..., `--rounds N` times each), each child printing its figures as one `BENCH {...}` JSON line;
// the parent prints both sets side by side with the ratio. Without `--before` a bench runs once against its own tree, as before.
// A child is told its tree with `--root <dir>` and loads every module under test from there (benchImport), so
// both trees are measured by the same bench code.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { median } from './median.ts'

const THIS_ROOT = path.resolve(import.meta.dirname, '..')

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

function option(name: string): string | null {
  const at = process.argv.indexOf(name)
  if (at < 0) return null
  const value = process.argv[at + 1]
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a directory`)
  return path.resolve(value)
}

/** The tree whose src/ this process measures: `--root <dir>` (a child) or this checkout. */
export const benchRoot: string = option('--root') ?? THIS_ROOT

/**
 * The previous commit's tree to compare with, when `--before <dir>` was given. Checks `--rounds` too, so a bench
 * that asks for its tree first refuses a bad count before it starts any run.
 */
export function beforeRoot(): string | null {
  const before = option('--before')
  if (before === null) return null
  if (!existsSync(path.join(before, 'src'))) {
    throw new Error(`--before ${before}: no src/ folder there (check out the previous commit first)`)
  }
  roundsOption(1)
  return before
}

/** Imports `relative` (e.g. 'src/audio/wav.ts') from the measured tree, typed as this tree's module. */
export async function benchImport<T>(relative: string): Promise<T> {
  return (await import(pathToFileURL(path.join(benchRoot, relative)).href)) as T
}

/** The arguments a bench was given, without the before/after plumbing. */
export function benchArguments(): string[] {
  const out: string[] = []
  const args = process.argv.slice(2)
  for (let index = 0; index < args.length; index++) {
    const value = args[index] as string
    if (value === '--before' || value === '--root' || value === '--rounds') index++
    else out.push(value)
  }
  return out
}

/** `--rounds N` (alternations per tree in a before/after run; more of them steady a figure on a busy machine). */
function roundsOption(fallback: number): number {
  const at = process.argv.indexOf('--rounds')
  if (at < 0) return fallback
  const rounds = Number(process.argv[at + 1])
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds needs a whole number of 1 or more')
  return rounds
}

/** A child's figures, printed as the last line the parent reads. */
export function printFigures(figures: Record<string, number>): void {
  console.log(`BENCH ${JSON.stringify(figures)}`)
}

async function runChild(bench: string, root: string, args: readonly string[], label: string) {
  const child = spawn(process.execPath, [...process.execArgv, bench, '--root', root, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let figures: Record<string, number> | null = null
  let pending = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => {
    pending += chunk
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      if (line.startsWith('BENCH ')) figures = JSON.parse(line.slice('BENCH '.length))
      else console.log(`[${label}] ${line}`)
    }
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0 || figures === null) throw new Error(`${label} run of ${bench} failed (exit ${code})`)
  return figures as Record<string, number>
}

/**
 * Runs `bench` against the before tree and this tree, alternately, `--rounds` (default `defaultRounds`) times
 * each, and prints every figure's median per tree with after/before, and the load average at the start and end.
 * Figures are whatever the child passed to printFigures.
 */
export async function compareBeforeAfter(bench: string, before: string, defaultRounds = 2): Promise<void> {
  const rounds = roundsOption(defaultRounds)
  const args = benchArguments()
  const runs: Record<'before' | 'after', Record<string, number>[]> = { before: [], after: [] }
  const loadBefore = loadAverage()
  for (let round = 0; round < rounds; round++) {
    runs.before.push(await runChild(bench, before, args, `before ${round + 1}`))
    runs.after.push(await runChild(bench, THIS_ROOT, args, `after ${round + 1}`))
  }
  console.log(`\nbefore = ${before}; after = ${THIS_ROOT}; median of ${rounds} alternating runs each`)
  console.log(`load average (1/5/15 min) at the start: ${loadBefore}; at the end: ${loadAverage()}`)
  console.log(`${'figure'.padEnd(44)} ${'before'.padStart(10)} ${'after'.padStart(10)}  after/before`)
  for (const name of Object.keys(runs.after[0] ?? {})) {
    const was = median(runs.before.map((figures) => figures[name] ?? Number.NaN))
    const now = median(runs.after.map((figures) => figures[name] ?? Number.NaN))
    console.log(
      `${name.padEnd(44)} ${was.toFixed(1).padStart(10)} ${now.toFixed(1).padStart(10)}  ${(now / was).toFixed(2)}`,
    )
  }
}
