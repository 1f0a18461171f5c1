// Running the project's own Vitest from a command: evaluations run only through Vitest (its spec files name the
// assistant under test and the test bodies), so the commands that execute scenarios again (`grade --cassettes`,
// `drift`, `explain`) start `vitest run` as a child process with the settings they need in its environment, print what it
// prints, and find the run folders it wrote from the canonical reporter's `Results: <run folder>` lines.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import type { CommandIO } from './main.ts'

export interface VitestInvocation {
  args: readonly string[]
  env: NodeJS.ProcessEnv
  cwd: string
  /** Ends the child (SIGTERM: Vitest writes the results of what finished) when aborted. */
  signal?: AbortSignal
}

export interface VitestOutcome {
  code: number | null
  output: string
  /** Every results.json the run wrote (the reporter prints each run folder as `Results: <folder>`). */
  resultFiles: string[]
}

/** Vitest's own entry point, as the project resolves it (the checkout's or the user's node_modules). */
export function vitestEntry(cwd: string): string {
  for (const base of [join(cwd, 'package.json'), import.meta.url]) {
    try {
      return join(dirname(createRequire(base).resolve('vitest/package.json')), 'vitest.mjs')
    } catch {
      // Not resolvable from there; try the next base.
    }
  }
  throw new Error(
    `Vitest is not installed where ${cwd} can find it: install it (npm i -D vitest) and run again`,
  )
}

/** The environment a child Vitest gets: this one, without a parent Vitest worker's own variables. */
export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('VITEST')))
}

export function runVitestChild(invocation: VitestInvocation, io: CommandIO): Promise<VitestOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitestEntry(invocation.cwd), ...invocation.args], {
      cwd: invocation.cwd,
      env: invocation.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      io.out(String(chunk))
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk
      io.err(String(chunk))
    })
    const stop = () => child.kill('SIGTERM')
    if (invocation.signal?.aborted) stop()
    else invocation.signal?.addEventListener('abort', stop, { once: true })
    child.on('error', reject)
    child.on('close', (code) => {
      invocation.signal?.removeEventListener('abort', stop)
      const resultFiles = [...output.matchAll(/^\s*Results: (.+?)\s*$/gm)].map(([, printed]) =>
        (printed as string).endsWith(RESULTS_FILE)
          ? (printed as string)
          : join(printed as string, RESULTS_FILE),
      )
      resolve({ code, output, resultFiles })
    })
  })
}
