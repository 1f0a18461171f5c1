// The installed package in a fresh project, for consumer tests: the checkout is copied, built and packed
// (`npm pack`), and the tarball installed offline (from the npm cache `npm ci` filled, through the cut-down
// lockfile of consumer-lockfile.test-helpers.ts) into a copy of test-projects/consumer, beside vitest only. The
// same steps as installed-package.test.ts, for test files that add their own spec or source files to the project.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { consumerLockfile } from './consumer-lockfile.test-helpers.ts'

export const ROOT = join(import.meta.dirname, '../..')
export const NODE = process.execPath
/** Build, pack and `npm ci` take minutes on a shared machine; each step has its own timeout below. */
export const INSTALL_TIMEOUT_MS = 480_000

export interface Ran {
  status: number | null
  output: string
}

export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Ran {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** The environment of a user's shell: nothing of this test run's Vitest or of live-evals settings. */
export function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|LIVE_EVALS_|OPENAI_|GPT_LIVE_EVALS_|npm_)/.test(name) || name === 'NODE_OPTIONS') continue
    env[name] = value
  }
  return { ...env, CI: '1', NO_COLOR: '1' }
}

export interface InstalledConsumer {
  /** The consumer project's folder, with node_modules/live-evals installed from the tarball. */
  consumer: string
  install: Ran
}

/** Builds and packs the checkout, and installs the tarball into a fresh copy of test-projects/consumer. */
export function installConsumer(): InstalledConsumer {
  const work = mkdtempSync(join(tmpdir(), 'live-evals-consumer-'))
  const copy = join(work, 'live-evals')
  const files = run('git', ['ls-files', '-co', '--exclude-standard'], ROOT)
    .output.split('\n')
    .filter((file) => file !== '' && statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile() === true)
  for (const file of files) {
    mkdirSync(join(copy, file, '..'), { recursive: true })
    cpSync(join(ROOT, file), join(copy, file))
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  const failed = (step: string, ran: Ran): InstalledConsumer => ({
    consumer: '',
    install: { status: ran.status, output: `${step}: ${ran.output}` },
  })
  const built = run(NODE, ['scripts/build.ts'], copy)
  if (built.status !== 0) return failed('build', built)
  const pack = run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
    copy,
    userEnvironment(),
  )
  if (pack.status !== 0) return failed('npm pack', pack)
  const packed =
    (JSON.parse(pack.output.slice(pack.output.indexOf('['))) as { filename: string }[])[0]?.filename ?? ''

  const consumer = join(work, 'consumer')
  cpSync(join(ROOT, 'test-projects/consumer'), consumer, { recursive: true })
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
  writeFileSync(
    join(consumer, 'package-lock.json'),
    JSON.stringify(
      consumerLockfile({
        checkoutLockfile: join(ROOT, 'package-lock.json'),
        tarball: join(work, packed),
        tarballSpec,
        livePackage: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')),
        vitestVersion,
      }),
    ),
  )
  const install = run(
    'npm',
    ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    consumer,
    userEnvironment(),
  )
  return { consumer, install }
}
