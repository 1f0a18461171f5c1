// The package as a team installs it: the checkout is built and packed (`npm pack`), the tarball is installed
// offline (from the npm cache `npm ci` filled) into a fresh project that has only vitest and live-evals, and that
// project (test-projects/consumer: one vitest.config.ts line, a spec with an inline scenario and its own
// assistant) runs offline on the checkout's Node and writes results.json. Its spec is type-checked against the
// package's .d.ts, and a deliberate type error must be reported.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { consumerLockfile } from './consumer-lockfile.test-helpers.ts'

const ROOT = join(import.meta.dirname, '../..')
const CONSUMER = join(ROOT, 'test-projects/consumer')
const NODE = process.execPath

interface Ran {
  status: number | null
  output: string
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Ran {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** The environment of a user's shell: nothing of this test run's Vitest or of live-evals settings. */
function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|LIVE_EVALS_|OPENAI_|GPT_LIVE_EVALS_|npm_)/.test(name) || name === 'NODE_OPTIONS') continue
    env[name] = value
  }
  return { ...env, CI: '1', NO_COLOR: '1' }
}

describe('npm pack, install into a fresh project, run offline', () => {
  let work = ''
  let consumer = ''
  let installed: Ran = { status: null, output: '' }
  let packed = ''

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'live-evals-package-'))
    // Build and pack a copy of the checkout, so no dist/ is left in the checkout itself.
    const copy = join(work, 'live-evals')
    const files = run('git', ['ls-files', '-co', '--exclude-standard'], ROOT)
      .output.split('\n')
      // Files only: a node_modules that is a link (not ignored by `node_modules/`) is linked below instead.
      .filter(
        (file) => file !== '' && statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile() === true,
      )
    for (const file of files) {
      mkdirSync(join(copy, file, '..'), { recursive: true })
      cpSync(join(ROOT, file), join(copy, file))
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
    const built = run(NODE, ['scripts/build.ts'], copy)
    expect(built.status, built.output).toBe(0)
    const pack = run(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
      copy,
      userEnvironment(),
    )
    expect(pack.status, pack.output).toBe(0)
    packed =
      (JSON.parse(pack.output.slice(pack.output.indexOf('['))) as { filename: string }[])[0]?.filename ?? ''

    consumer = join(work, 'consumer')
    cpSync(CONSUMER, consumer, { recursive: true })
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
    installed = run(
      'npm',
      ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      consumer,
      userEnvironment(),
    )
  }, 480_000)

  test('the tarball holds the compiled package and its data files, and no tests', () => {
    const list = run('tar', ['-tzf', join(work, packed)], work).output.split('\n')
    expect(list).toContain('package/dist/src/index.js')
    expect(list).toContain('package/dist/src/index.d.ts')
    expect(list).toContain('package/dist/src/vitest/project.js')
    expect(list).toContain('package/dist/reporters/canonical.js')
    expect(list).toContain('package/dist/src/assistants/responses/prompts/voice.txt')
    expect(list).toContain('package/dist/src/assistants/client/tools/definitions.json')
    expect(list).toContain('package/bin/live-evals.js')
    expect(list.filter((entry) => /\.test\.|\/fixtures\/|\.ts$(?<!\.d\.ts)/.test(entry))).toEqual([])
  })

  test('installs offline with only vitest beside it', () => {
    expect(installed.status, installed.output).toBe(0)
    expect(readdirSync(join(consumer, 'node_modules'))).toContain('live-evals')
  })

  test('the installed command runs', () => {
    const help = run(
      NODE,
      [join(consumer, 'node_modules/live-evals/bin/live-evals.js'), '--help'],
      consumer,
      userEnvironment(),
    )
    expect(help.status, help.output).toBe(0)
    expect(help.output).toMatch(/^Usage: live-evals <command>/)
  })

  test('the spec runs offline and writes results.json with its own scenario passed in both architectures', () => {
    const vitest = run(
      NODE,
      [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run'],
      consumer,
      userEnvironment(),
    )
    expect(vitest.status, vitest.output).toBe(0)
    expect(vitest.output).toContain('2 passed, 0 failed')
    const resultsDir = join(consumer, 'results/crawl')
    const runs = readdirSync(resultsDir).filter((name) => !name.startsWith('.'))
    expect(runs).toHaveLength(2)
    for (const name of runs) {
      const document = ResultsDocumentSchema.parse(
        JSON.parse(readFileSync(join(resultsDir, name, 'results.json'), 'utf8')),
      )
      expect(document.results.map((row) => [row.scenario_id, row.status])).toEqual([['add_milk', 'passed']])
    }
  })

  test('the .d.ts type the consumer: its spec and config check, the deliberate error is reported', () => {
    const tsc = run(
      NODE,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      consumer,
      userEnvironment(),
    )
    expect(tsc.status).not.toBe(0)
    const errors = tsc.output.split('\n').filter((line) => /error TS\d+/.test(line))
    expect(errors.length, tsc.output).toBeGreaterThan(0)
    expect(errors.every((line) => line.startsWith('type-error.ts'))).toBe(true)
    expect(tsc.output).toContain('"sometimes"')
  })
})
