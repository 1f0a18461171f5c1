// Builds the package once and installs it into a copy of test-projects/consumer (the template every package test
// copies; shared-package.test-helpers.ts explains the sharing). It imports nothing of Vitest, so the unit
// project's global setup can run it as a script in the background: `node shared-package-build.test-helpers.ts <dir>`
// writes <dir>/package.json (the SharedPackage) or <dir>/failed.txt.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { testChildEnvironment } from '../testing/child-environment.test-helpers.ts'
import { consumerLockfile } from './consumer-lockfile.test-helpers.ts'

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
  return testChildEnvironment({ alsoCleared: /^npm_/, extra })
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

export function buildPackage(work: string): SharedPackage {
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
  // Without the type check `npm run typecheck` has done (scripts/build.ts): 11.0 -> about 7 CPU s, the same dist/
  // (`/usr/bin/time node scripts/build.ts` and its tsc with --noCheck, `diff -r` of the two dist/ folders).
  const built = run(NODE, ['scripts/build.ts', '--no-check'], copy)
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

/** Where a build in `dir` leaves its outcome. */
export const builtFile = (dir: string) => join(dir, 'package.json')
export const failedFile = (dir: string) => join(dir, 'failed.txt')

/** Builds into `dir` and records the outcome there, for whoever waits on it. */
export function buildInto(dir: string): void {
  try {
    writeFileSync(builtFile(dir), JSON.stringify(buildPackage(dir)))
  } catch (error) {
    writeFileSync(failedFile(dir), error instanceof Error ? (error.stack ?? error.message) : String(error))
  }
}

if (import.meta.main) buildInto(process.argv[2] ?? '')
