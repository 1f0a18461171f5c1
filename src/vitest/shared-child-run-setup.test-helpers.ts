// Vitest's globalSetup of the unit project (vitest.config.ts): the run's folder for the shared child Vitest runs
// (shared-child-run.test-helpers.ts), removed when the run ends. Nothing starts here: the first test file that
// asks for a shared run starts it, so a narrowed run starts only the runs its files read. In watch mode each
// rerun gets a folder of its own, so a changed fixture is run again rather than read from the last run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's folder for the shared child runs; absent in a project without this global setup. */
    sharedChildRunsDir?: string
  }
}

export default function sharedChildRunSetup(project: TestProject): () => void {
  const folders: string[] = []
  const provideNew = () => {
    const dir = mkdtempSync(join(tmpdir(), 'live-evals-shared-runs-'))
    folders.push(dir)
    project.provide('sharedChildRunsDir', dir)
  }
  provideNew()
  project.onTestsRerun(provideNew)
  return () => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  }
}
