// Test support for the spawned-Vitest integration tests: run the fixture project (src/vitest/fixtures) in a
// child Vitest from the repository root, with a clean environment and a scratch folder of its own.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const FIXTURE_CONFIG = 'src/vitest/fixtures/vitest.config.ts'
export const SPAWN_TIMEOUT_MS = 120_000
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

export interface ChildRun {
  code: number | null
  output: string
}

/** The parent's environment without Vitest's worker variables or any live-evals/OpenAI setting. */
function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|LIVE_EVALS_|OPENAI_|GPT_LIVE_EVALS_)/.test(name) || name === 'NODE_OPTIONS') continue
    env[name] = value
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...extra }
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
