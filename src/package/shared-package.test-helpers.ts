// The package as a team installs it, built once per test run and shared by every test that needs it: a copy of
// the checkout is built and packed (`npm pack`, so the checkout keeps no dist/), and the tarball is installed
// offline (`npm ci --offline`, from the npm cache `npm ci` filled, with the lockfile consumer-lockfile.test-helpers.ts
// writes) into a copy of test-projects/consumer (shared-package-build.test-helpers.ts). That installed project is a
// template nobody runs: each test takes its own copy (consumerCopy), so it may change the project's files.
//
// The unit project's globalSetup (shared-package-setup.test-helpers.ts) gives the run a folder. A whole-project run
// starts the build there at once, in the background; otherwise the first test that asks builds it, under a lock.
// Either way the other tests wait for that one build: a run that selects no package test builds nothing (unless
// it is a whole-project run), and a run that selects several builds once (each of four files built and installed
// its own before). Outside that global setup (another project), the package is built once per worker instead.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'
import {
  buildInto,
  buildPackage,
  builtFile,
  failedFile,
  run,
  SHARED_PACKAGE_TIMEOUT_MS,
  type SharedPackage,
} from './shared-package-build.test-helpers.ts'
import './shared-package-setup.test-helpers.ts'

export {
  CONSUMER_TEMPLATE,
  NODE,
  type Ran,
  ROOT,
  run,
  SHARED_PACKAGE_TIMEOUT_MS,
  type SharedPackage,
  userEnvironment,
} from './shared-package-build.test-helpers.ts'

let inThisWorker: Promise<SharedPackage> | null = null

/** The run's built, packed and installed package: built by the first caller of the run, waited for by the rest. */
export function sharedPackage(): Promise<SharedPackage> {
  const dir = inject('sharedPackageDir')
  if (dir === undefined) {
    inThisWorker ??= Promise.resolve().then(() =>
      buildPackage(mkdtempSync(join(tmpdir(), 'live-evals-package-'))),
    )
    return inThisWorker
  }
  return sharedIn(dir)
}

async function sharedIn(dir: string): Promise<SharedPackage> {
  try {
    mkdirSync(join(dir, 'lock'))
    buildInto(dir)
  } catch {
    // The global setup or another test file builds it.
  }
  const deadline = Date.now() + SHARED_PACKAGE_TIMEOUT_MS
  for (;;) {
    if (existsSync(failedFile(dir)))
      throw new Error(`the shared package build failed:\n${readFileSync(failedFile(dir), 'utf8')}`)
    if (existsSync(builtFile(dir))) return JSON.parse(readFileSync(builtFile(dir), 'utf8')) as SharedPackage
    if (Date.now() > deadline) throw new Error(`the shared package was not ready in ${dir} in time`)
    await sleep(250)
  }
}

/**
 * A project of its own in `dir`: the template's files copied and its installed packages linked in
 * (linkInstalledPackages).
 */
export function consumerCopy(shared: SharedPackage, dir: string): string {
  cpSync(shared.template, dir, {
    recursive: true,
    filter: (source) => source !== join(shared.template, 'node_modules'),
  })
  linkInstalledPackages(shared, dir)
  return dir
}

/**
 * The template's node_modules in `project`, hard-linked: the installed packages as they are, in a second.
 * Nothing writes into an installed package's files, and what Vite or Vitest add there (caches, the bundled
 * config) are new files of this copy only.
 */
export function linkInstalledPackages(shared: SharedPackage, project: string): void {
  mkdirSync(project, { recursive: true })
  const linked = run(
    'cp',
    ['-al', join(shared.template, 'node_modules'), join(project, 'node_modules')],
    project,
  )
  if (linked.status !== 0) throw new Error(`could not link the installed node_modules:\n${linked.output}`)
}
