// Test support for the interrupted-run tests: start the interrupt fixture project (src/vitest/fixtures/interrupt)
// in a child Vitest that leads its own process group, wait for a progress point read from its rows journal, and
// check what a stopped run left on disk.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { testChildEnvironment } from '../testing/child-environment.test-helpers.ts'
import { ROOT, SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'

export const INTERRUPT_CONFIG = 'src/vitest/fixtures/interrupt/vitest.config.ts'
export const INTERRUPT_SCENARIOS = [1, 2, 3, 4, 5].map((index) => `interrupt_${index}`)
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

export interface HeldRun {
  child: ChildProcess
  output(): string
  /** Resolves with the exit code and signal once the child exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** A child Vitest run's environment, without the fixture's own variables of this process. */
function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return testChildEnvironment({ alsoCleared: /^INTERRUPT_FIXTURE_/, extra: { FORCE_COLOR: '0', ...extra } })
}

export function startFixtureRun(args: string[], env: Record<string, string>): HeldRun {
  const child = spawn(process.execPath, [VITEST, 'run', '--config', INTERRUPT_CONFIG, ...args], {
    cwd: ROOT,
    env: childEnvironment(env),
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.on('close', (code, signal) => resolveExit({ code, signal })),
  )
  return { child, output: () => output, exited }
}

/** `script` (util-linux) gives the child a terminal; without one Vitest never reads keys. */
export const SCRIPT = '/usr/bin/script'

/**
 * The fixture project in `vitest --watch` on a terminal (a pseudo-terminal made by `script`), where Ctrl-C is a
 * key Vitest reads: it cancels the run, which ends as `interrupted`. Write keys with `child.stdin.write`.
 */
export function startFixtureRunOnTerminal(env: Record<string, string>): HeldRun {
  const command = [process.execPath, VITEST, '--watch', '--config', INTERRUPT_CONFIG]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ')
  const environment = childEnvironment(env)
  delete environment.CI // watch mode reads keys only outside CI
  const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: environment,
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.on('close', (code, signal) => resolveExit({ code, signal })),
  )
  return { child, output: () => output, exited }
}

/** Resolves once the child printed `text`; rejects when it exits first or time runs out. */
export async function waitForOutput(run: HeldRun, text: string): Promise<void> {
  await waitUntil(run, `it printed ${JSON.stringify(text)}`, () =>
    run.output().includes(text) ? true : null,
  )
}

/** Ends whatever is left of the child's process group (its workers), so nothing writes after the checks start. */
export function killGroup(run: HeldRun): void {
  try {
    if (run.child.pid !== undefined) process.kill(-run.child.pid, 'SIGKILL')
  } catch {
    // the group is gone already
  }
}

/** The complete lines of a journal file, or 0 while it does not exist. */
function journalLineCount(file: string): number {
  if (!existsSync(file)) return 0
  const text = readFileSync(file, 'utf8')
  return text.split('\n').length - 1
}

/**
 * Polls `probe` until it finds something; rejects when the child exits first or time runs out, saying what it
 * waited for (`what`: "it printed …", "its journal held …").
 */
async function waitUntil<Found>(run: HeldRun, what: string, probe: () => Found | null): Promise<Found> {
  const deadline = Date.now() + SPAWN_TIMEOUT_MS
  for (let found = probe(); ; found = probe()) {
    if (found !== null) return found
    if (run.child.exitCode !== null || run.child.signalCode !== null)
      throw new Error(`the child exited before ${what}; it printed:\n${run.output()}`)
    if (Date.now() > deadline)
      throw new Error(`timed out before ${what}; the child printed:\n${run.output()}`)
    await new Promise((resolveWait) => setTimeout(resolveWait, 50))
  }
}

/**
 * Waits until the run's journal holds `rows` finished rows (its first line is the header), and returns the run
 * folder. Polls the file: the progress point is a fact on disk, not a moment in time. `earlier` names run folders
 * of earlier runs in the same results folder, which are not this run's.
 */
export function waitForJournalRows(
  run: HeldRun,
  resultsDir: string,
  rows: number,
  earlier: readonly string[] = [],
): Promise<string> {
  return waitUntil(run, `its journal held ${rows} rows`, () => {
    const name = existsSync(resultsDir)
      ? readdirSync(resultsDir).find(
          (entry) => !entry.startsWith('.') && !earlier.includes(join(resultsDir, entry)),
        )
      : undefined
    if (name === undefined) return null
    const runDir = join(resultsDir, name)
    return journalLineCount(join(runDir, 'rows.jsonl')) === rows + 1 ? runDir : null
  })
}

/**
 * Waits until the held scenario reached its hold: its conversation ran and its artifacts are written (the
 * fixture writes `heldFile` then). The journal alone does not say so: the next scenario starts after the last
 * journaled row, and a signal that lands while it writes cuts its artifacts short.
 */
export async function waitForHold(run: HeldRun, heldFile: string): Promise<void> {
  await waitUntil(run, `the held scenario reached its hold (${heldFile})`, () =>
    existsSync(heldFile) ? true : null,
  )
}

/** Every file under `folder`, recursively (relative paths). */
export function filesUnder(folder: string): string[] {
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Folders under `folder` (itself included) that hold nothing. */
export function emptyFoldersUnder(folder: string): string[] {
  const folders = [
    folder,
    ...(readdirSync(folder, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name)),
  ]
  return folders.filter((path) => readdirSync(path).length === 0)
}

/**
 * Why a final artifact looks cut short, or null: a JSON file that does not parse, a WAV whose RIFF or data sizes
 * disagree with its length, an empty file. Temporary files of writers killed mid-write are not final artifacts.
 */
export function truncationProblem(file: string): string | null {
  const bytes = readFileSync(file)
  if (bytes.length === 0 && statSync(file).isFile()) return 'empty'
  if (file.endsWith('.json')) {
    try {
      JSON.parse(bytes.toString('utf8'))
      return null
    } catch (error) {
      return `does not parse (${(error as Error).message})`
    }
  }
  if (file.endsWith('.wav')) return wavSizeProblem(bytes)
  return null
}

function wavSizeProblem(bytes: Buffer): string | null {
  if (
    bytes.length < 12 ||
    bytes.toString('latin1', 0, 4) !== 'RIFF' ||
    bytes.toString('latin1', 8, 12) !== 'WAVE'
  )
    return 'not a RIFF/WAVE file'
  if (bytes.readUInt32LE(4) !== bytes.length - 8)
    return `RIFF size ${bytes.readUInt32LE(4)} for ${bytes.length} bytes`
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', offset, offset + 4)
    const size = bytes.readUInt32LE(offset + 4)
    if (offset + 8 + size > bytes.length) return `chunk ${id} declares ${size} bytes, fewer are present`
    if (id === 'data') return null
    offset += 8 + size + (size % 2)
  }
  return 'no data chunk'
}
