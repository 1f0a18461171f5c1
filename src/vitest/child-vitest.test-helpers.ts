// Test support for the spawned-Vitest integration tests: run the fixture project (src/vitest/fixtures) in a
// child Vitest from the repository root, with a clean environment and a scratch folder of its own.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { testChildEnvironment } from '../testing/child-environment.test-helpers.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
export const FIXTURE_CONFIG = 'src/vitest/fixtures/vitest.config.ts'
export const SPAWN_TIMEOUT_MS = 120_000
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

export interface ChildRun {
  code: number | null
  output: string
}

/** A child Vitest run's environment (testChildEnvironment), with `extra` on top. */
export function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return testChildEnvironment({ extra: { FORCE_COLOR: '0', ...extra } })
}

export function runVitest(args: string[], env: Record<string, string>): Promise<ChildRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [VITEST, ...args], { cwd: ROOT, env: cleanEnvironment(env) })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, output }))
  })
}

/** A scratch folder with an empty `.env` file (so a developer's own never leaks in) and a results folder. */
export async function scratch(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-vitest-'))
  const envFile = join(dir, 'empty.env')
  await writeFile(envFile, '')
  return { dir, env: { LIVE_EVALS_ENV_FILE: envFile, LIVE_EVALS_RESULTS_DIR: join(dir, 'results') } }
}

export const lines = (output: string) => output.split(/\r?\n/).map((line) => line.trim())

/** The run directories in a results folder (Vitest's `.attachments` copies sit beside them). */
export async function runDirectoriesIn(resultsDir: string): Promise<string[]> {
  return (await readdir(resultsDir)).filter((name) => !name.startsWith('.')).sort()
}

/** Each run directory's results.json in a results folder, validated, by folder name in order. */
export async function resultsDocumentsIn(resultsDir: string): Promise<Map<string, ResultsDocument>> {
  const documents = new Map<string, ResultsDocument>()
  for (const name of await runDirectoriesIn(resultsDir)) {
    const text = await readFile(join(resultsDir, name, 'results.json'), 'utf8')
    documents.set(name, ResultsDocumentSchema.parse(JSON.parse(text)))
  }
  return documents
}

export interface RunningVitest {
  /** Everything the child printed so far. */
  output(): string
  /** Resolves once `predicate` holds for the output; rejects when the child exits first or time runs out. */
  waitFor(predicate: (output: string) => boolean, timeoutMs?: number): Promise<string>
  /** Ends the child (and its workers) and waits for it to exit. */
  stop(): Promise<void>
}

/** A long-running child Vitest (`--watch`, `--ui`), for tests that interact with it while it runs. */
export function startVitest(args: string[], env: Record<string, string>): RunningVitest {
  const child = spawn(process.execPath, [VITEST, ...args], {
    cwd: ROOT,
    env: cleanEnvironment(env),
    detached: true,
  })
  let output = ''
  let exited = false
  const waiters = new Set<() => void>()
  const notify = () => {
    for (const waiter of waiters) waiter()
  }
  child.stdout.on('data', (chunk) => {
    output += chunk
    notify()
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
    notify()
  })
  const closed = new Promise<void>((resolveClosed) =>
    child.on('close', () => {
      exited = true
      notify()
      resolveClosed()
    }),
  )
  return {
    output: () => output,
    waitFor(predicate, timeoutMs = SPAWN_TIMEOUT_MS) {
      return new Promise((resolveWait, reject) => {
        const check = () => {
          if (predicate(output)) finish(() => resolveWait(output))
          else if (exited)
            finish(() => reject(new Error(`child Vitest exited first; it printed:\n${output}`)))
        }
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting; the child printed:\n${output}`))),
          timeoutMs,
        )
        const finish = (settle: () => void) => {
          clearTimeout(timer)
          waiters.delete(check)
          settle()
        }
        waiters.add(check)
        check()
      })
    },
    async stop() {
      // The child leads its own process group (detached): ending the group ends its workers too.
      if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      await closed
    },
  }
}
