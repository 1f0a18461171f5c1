// Vitest's globalSetup of the unit project (vitest.config.ts): the run's folder for the shared package
// (shared-package.test-helpers.ts), removed when the run ends. A whole-project run (no file or name filter, no
// shard, not watching: `npm test`) selects the package tests, so the build starts here at once, in a background
// process, and is ready by the time they run; a narrowed run leaves it to the first test that asks.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's folder for the shared package; absent in a project without this global setup. */
    sharedPackageDir?: string
  }
}

const BUILD_SCRIPT = join(import.meta.dirname, 'shared-package-build.test-helpers.ts')

/** A run of the whole project: the package tests are in it. */
function runsEveryFile(project: TestProject): boolean {
  const { vitest } = project
  const filters = (vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? []
  return (
    filters.length === 0 &&
    !vitest.config.watch &&
    vitest.config.shard === undefined &&
    vitest.config.testNamePattern === undefined
  )
}

export default function sharedPackageSetup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'live-evals-shared-package-'))
  project.provide('sharedPackageDir', dir)
  let build: ChildProcess | null = null
  let built: Promise<void> = Promise.resolve()
  if (runsEveryFile(project)) {
    mkdirSync(join(dir, 'lock'))
    build = spawn(process.execPath, [BUILD_SCRIPT, dir], { stdio: 'ignore' })
    built = new Promise((resolve) => build?.on('close', () => resolve()))
  }
  return async () => {
    if (build !== null && build.exitCode === null) build.kill()
    await built
    rmSync(dir, { recursive: true, force: true })
  }
}
