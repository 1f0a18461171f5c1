// A fresh consumer project with the packed package installed, for the consumer-project tests: the checkout is
// copied, built and packed (`npm pack`, so no dist/ is left in the checkout), test-projects/consumer is copied
// beside the tarball, and `npm ci --offline` installs it from the npm cache `npm ci` filled (with the lockfile
// consumer-lockfile.test-helpers.ts writes). Each test file gets its own folder, so it may change the project.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { consumerLockfile } from './consumer-lockfile.test-helpers.ts'

export const ROOT = join(import.meta.dirname, '../..')
export const CONSUMER_TEMPLATE = join(ROOT, 'test-projects/consumer')
/** The checkout's Node (the pinned devDependency). */
export const NODE = process.execPath

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

export interface InstalledConsumer {
  /** The scratch folder holding the checkout's copy, the tarball and the consumer. */
  work: string
  /** The consumer project's folder. */
  consumer: string
  /** The tarball's file name, in `work`. */
  packed: string
  /** What `npm ci` printed and returned. */
  installed: Ran
}

/** Builds and packs the checkout, and installs the tarball into a copy of test-projects/consumer. */
export function installConsumerProject(prefix = 'live-evals-package-'): InstalledConsumer {
  const work = mkdtempSync(join(tmpdir(), prefix))
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
  const packed =
    (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[])[0]?.filename ?? ''

  const consumer = join(work, 'consumer')
  cpSync(CONSUMER_TEMPLATE, consumer, { recursive: true })
  const vitestVersion = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }
  ).version
  const tarballSpec = `file:../${packed}`
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      devDependencies: { vitest: vitestVersion, 'live-evals': tarballSpec },
    }),
  )
  const livePackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  writeFileSync(
    join(consumer, 'package-lock.json'),
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
    consumer,
    userEnvironment(),
  )
  return { work, consumer, packed, installed }
}

/** The consumer's Vitest, run by `node` (a path to a Node binary) from the consumer's folder. */
export function runConsumerVitest(
  node: string,
  consumer: string,
  args: string[] = ['run'],
  env: NodeJS.ProcessEnv = userEnvironment(),
): Ran {
  return run(node, [join(consumer, 'node_modules/vitest/vitest.mjs'), ...args], consumer, env)
}
