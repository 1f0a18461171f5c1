// Vitest's globalSetup of the unit project (vitest.config.ts): the run's folder for the shared package
// (shared-package.test-helpers.ts builds, packs and installs it there on the first test's demand), removed when the
// run ends. It builds nothing itself, so a run that selects no package test costs nothing.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's folder for the shared package; absent in a project without this global setup. */
    sharedPackageDir?: string
  }
}

export default function sharedPackageSetup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'live-evals-shared-package-'))
  project.provide('sharedPackageDir', dir)
  return () => rmSync(dir, { recursive: true, force: true })
}
