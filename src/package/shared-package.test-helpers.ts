// The package as a team installs it, built once per test run and shared by every test that needs it: a copy of
// the checkout is built and packed (`npm pack`, so the checkout keeps no dist/), and the tarball is installed
// offline (`npm ci --offline`, from the npm cache `npm ci` filled, with the lockfile consumer-lockfile.test-helpers.ts
// writes) into a copy of test-projects/consumer. That installed project is a template nobody runs: each test takes
// its own copy (consumerCopy), so it may change the project's files as it likes.
//
// The unit project's globalSetup (shared-package-setup.test-helpers.ts) only gives the run a scratch folder; the first test that asks
// for the package builds it there, under a lock, while tests in other workers wait for it. So a run that selects
// no package test builds nothing, and a run that selects several builds once (four builds and installs before).
// Outside that global setup (another project), the package is built once per worker instead.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'
import { consumerLockfile } from './consumer-lockfile.test-helpers.ts'
import './shared-package-setup.test-helpers.ts'

export const ROOT = join(import.meta.dirname, '../..')
export const CONSUMER_TEMPLATE = join(ROOT, 'test-projects/consumer')
/** The checkout's Node (the pinned devDependency). */
export const NODE = process.execPath
/** Build, pack and `npm ci` take minutes on a shared two-core machine. */
export const SHARED_PACKAGE_TIMEOUT_MS = 480_000

export interface Ran {
  status: number | null
  output: string
  stdout: string
  stderr: string
}

export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Ran {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 })
  return {
    status: result.status,
    output: `${result.stdout}${result.stderr}`,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
  }
}

/** The environment of a user's shell: nothing of this test run's Vitest or of live-evals settings. */
export function userEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|LIVE_EVALS_|OPENAI_|GPT_LIVE_EVALS_|npm_)/.test(name) || name === 'NODE_OPTIONS') continue
    env[name] = value
  }
  return { ...env, CI: '1', NO_COLOR: '1', ...extra }
}

export interface SharedPackage {
  /** The packed tarball (absolute path). */
  tarball: string
  /** Its file name (`live-evals-<version>.tgz`). */
  packed: string
  /** The files `npm pack` put in it, as package-relative paths (what `npm pack --dry-run` lists). */
  files: string[]
  /** The installed consumer project. Never run it or change it: take a copy with consumerCopy. */
  template: string
  /** What `npm ci` printed and returned for it. */
  installed: Ran
}

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
  const done = join(dir, 'package.json')
  const failed = join(dir, 'failed.txt')
  let claimed = false
  try {
    mkdirSync(join(dir, 'lock'))
    claimed = true
  } catch {
    // Another test file builds it.
  }
  if (claimed) {
    try {
      writeFileSync(done, JSON.stringify(buildPackage(dir)))
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? (error.stack ?? error.message) : String(error))
    }
  }
  const deadline = Date.now() + SHARED_PACKAGE_TIMEOUT_MS
  for (;;) {
    if (existsSync(failed))
      throw new Error(`the shared package build failed:\n${readFileSync(failed, 'utf8')}`)
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as SharedPackage
    if (Date.now() > deadline) throw new Error(`the shared package was not ready in ${dir} in time`)
    await sleep(250)
  }
}

function buildPackage(work: string): SharedPackage {
  const copy = join(work, 'live-evals')
  const files = run('git', ['ls-files', '-co', '--exclude-standard'], ROOT)
    .output.split('\n')
    // Files only: a node_modules that is a link (not ignored by `node_modules/`) is linked below instead.
    .filter((file) => file !== '' && statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile() === true)
  for (const file of files) {
    mkdirSync(join(copy, file, '..'), { recursive: true })
    cpSync(join(ROOT, file), join(copy, file))
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  const built = run(NODE, ['scripts/build.ts'], copy)
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.output}`)
  const pack = run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
    copy,
    userEnvironment(),
  )
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.output}`)
  const [listed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as {
    filename: string
    files: { path: string }[]
  }[]
  const packed = listed?.filename ?? ''
  rmSync(copy, { recursive: true, force: true })

  const template = join(work, 'consumer')
  cpSync(CONSUMER_TEMPLATE, template, { recursive: true })
  const vitestVersion = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }
  ).version
  const tarballSpec = `file:../${packed}`
  writeFileSync(
    join(template, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      devDependencies: { vitest: vitestVersion, 'live-evals': tarballSpec },
    }),
  )
  const livePackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  writeFileSync(
    join(template, 'package-lock.json'),
    JSON.stringify(
      consumerLockfile({
        checkoutLockfile: join(ROOT, 'package-lock.json'),
        tarball: join(work, packed),
        tarballSpec,
        livePackage,
        vitestVersion,
      }),
    ),
  )
  const installed = run(
    'npm',
    ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    template,
    userEnvironment(),
  )
  return {
    tarball: join(work, packed),
    packed,
    files: listed?.files.map((file) => file.path) ?? [],
    template,
    installed,
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
