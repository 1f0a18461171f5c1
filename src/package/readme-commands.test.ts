// The README's "Use it on your own voice agent", followed as a new user would, outside the checkout: the run's
// packed tarball (shared-package.test-helpers.ts) ships no test fixtures (the files `npm pack` listed, what
// `npm pack --dry-run` prints), a fresh project gets the README's package.json settings and its files (every code
// block whose first line names a file), and the README's commands run in order: an offline run, the gate on
// --latest, the baseline approved, a second run gated against it, prune.
// One step differs from the README, because tests never touch the network: `npm i -D … ./live-evals-0.1.0.tgz`
// resolves from the registry, so the packages come from the run's shared install (`npm ci --offline` from a
// lockfile cut from the checkout's, consumer-lockfile.test-helpers.ts), linked into the project; the packages
// installed are the same. And `npx` in the README's block is a shell function that runs the command from the
// project's node_modules/.bin (first on the PATH, as npx puts it): the program npx runs there, without npm's own
// start-up, 0.9 CPU s a time (`/usr/bin/time npx live-evals --version` against the bin itself), seven times in the
// block. That npx finds the package's command is proved once, by the real `npx live-evals --version`.
// A failing scenario of the README's spec also shows how a state mismatch reads, in the console and the report.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { testChildEnvironment } from '../testing/child-environment.test-helpers.ts'
import { consumerLockfile } from './consumer-lockfile.test-helpers.ts'
import {
  linkInstalledPackages,
  SHARED_PACKAGE_TIMEOUT_MS,
  sharedPackage,
} from './shared-package.test-helpers.ts'

const ROOT = join(import.meta.dirname, '../..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const NODE = process.execPath
const livePackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const TARBALL = `live-evals-${livePackage.version}.tgz`
/** Where the wrong expected state differs from the state the README's tool leaves. */
const STATE_DIFF = 'tasks[0].title: expected "buy bread", got "buy milk"'

interface Ran {
  status: number | null
  output: string
}

/** A user's shell: nothing of this Vitest or of live-evals settings; the project's bins and Node 24 first. */
function userEnvironment(project?: string): NodeJS.ProcessEnv {
  const bins = project === undefined ? [] : [join(project, 'node_modules/.bin')]
  const path = [...bins, dirname(NODE), process.env.PATH ?? ''].join(':')
  return testChildEnvironment({ alsoCleared: /^(GITHUB_|npm_)/, extra: { PATH: path } })
}

function run(command: string, args: string[], cwd: string, env = userEnvironment()): Ran {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 300_000 })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A README command line in the project's shell, `npx <bin>` running node_modules/.bin/<bin> (see the top). */
function runReadmeLine(line: string, project: string): Ran {
  const npx = 'npx() { command "$@"; }\n'
  return run('bash', ['-euo', 'pipefail', '-c', `${npx}${line}`], project, userEnvironment(project))
}

/** The README section a consumer follows. */
const consumerSection = README.slice(
  README.indexOf('## Use it on your own voice agent'),
  README.indexOf('## One verdict'),
)

/** The section's code blocks, with their language. */
const codeBlocks = [...consumerSection.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, language, body]) => ({
  language: language as string,
  body: body as string,
}))

/** Blocks whose first line names the file they are (`// vitest.config.ts`, `# crawl.toml: …`). */
const projectFiles = codeBlocks.flatMap(({ body }) => {
  const named = /^(?:\/\/|#) ([\w./-]+\.(?:ts|toml|json))\b/.exec(body.split('\n')[0] ?? '')
  return named === null ? [] : [{ path: named[1] as string, body }]
})

/** The commands run in the project after its files exist: the block that runs Vitest, live lines left out. */
const commands = (
  codeBlocks.find(({ language, body }) => language === 'sh' && body.startsWith('npx vitest run'))?.body ?? ''
)
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.includes('LIVE_EVALS_MODE=live'))

describe("the README's consumer commands, in a fresh project from the packed tarball", () => {
  let work = ''
  let project = ''
  let dryRun: string[] = []
  let installed: Ran = { status: null, output: '' }

  beforeAll(async () => {
    const shared = await sharedPackage()
    dryRun = shared.files
    work = mkdtempSync(join(tmpdir(), 'live-evals-readme-'))
    project = join(work, 'todo')
    mkdirSync(project)
    cpSync(shared.tarball, join(project, TARBALL))
    const vitestVersion = (
      JSON.parse(readFileSync(join(ROOT, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }
    ).version
    const tarballSpec = `file:${TARBALL}`
    // What `npm pkg set type=module` and `npm i -D -E vitest@… ./live-evals-….tgz` write.
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        devDependencies: { vitest: vitestVersion, 'live-evals': tarballSpec },
      }),
    )
    writeFileSync(
      join(project, 'package-lock.json'),
      JSON.stringify(
        consumerLockfile({
          checkoutLockfile: join(ROOT, 'package-lock.json'),
          tarball: join(project, TARBALL),
          tarballSpec,
          livePackage,
          vitestVersion,
        }),
      ),
    )
    installed = shared.installed
    linkInstalledPackages(shared, project)
    for (const file of projectFiles) {
      mkdirSync(join(project, file.path, '..'), { recursive: true })
      writeFileSync(join(project, file.path), file.body)
    }
  }, SHARED_PACKAGE_TIMEOUT_MS)

  test('the tarball ships the compiled package and no tests, fixtures or test helpers', () => {
    expect(dryRun).toContain('dist/src/index.js')
    expect(dryRun).toContain('dist/src/vitest/fixtures.js') // Vitest fixtures of the product, not test data
    const testFiles = dryRun.filter((path) =>
      /(^|\/)(fixtures|test-assets|parity)\/|-fixture\/|\.test\.|\.test-helpers\.|\.spec\.|\.ts$(?<!\.d\.ts)/.test(
        path,
      ),
    )
    expect(testFiles).toEqual([])
  })

  test('installs, and live-evals --version names the packed version', () => {
    expect(installed.status, installed.output).toBe(0)
    const version = run('npx', ['live-evals', '--version'], project, userEnvironment(project))
    expect(version.status, version.output).toBe(0)
    expect(version.output.trim().split('\n').at(-1)).toBe(livePackage.version)
  })

  test('every README command runs in order: a run, the gate, a baseline, a second run gated against it, prune', () => {
    expect(projectFiles.map((file) => file.path)).toEqual([
      'vitest.config.ts',
      'crawl.toml',
      'specs/crawl/todo.spec.ts',
    ])
    expect(commands.length).toBeGreaterThanOrEqual(6)
    const outputs: string[] = []
    for (const command of commands) {
      const ran = runReadmeLine(command, project)
      outputs.push(ran.output)
      expect(ran.status, `${command}\n${ran.output}`).toBe(0)
    }
    const all = outputs.join('\n')
    // Two runs of both architectures are in results/, and the gate still judged one row per architecture.
    expect(all.match(/2 passed, 0 failed/g)).toHaveLength(2)
    expect(all).toContain('pass         no_regressions')
    expect(all.match(/gate pass: 2\/2 rows passed/g)).toHaveLength(2)
    expect(readdirSync(join(project, 'baselines')).sort()).toEqual([
      'crawl_offline_client.json',
      'crawl_offline_responses.json',
    ])
    const runs = readdirSync(join(project, 'results/crawl')).filter((name) => !name.startsWith('.'))
    expect(runs).toHaveLength(4)
    // Each run's results.json is the schema's, with the README's scenario passed (from installed-package.test.ts,
    // whose own run of the consumer with a TOML this project's runs replace).
    for (const name of runs) {
      const document = ResultsDocumentSchema.parse(
        JSON.parse(readFileSync(join(project, 'results/crawl', name, 'results.json'), 'utf8')),
      )
      expect(document.results.map((row) => [row.scenario_id, row.status])).toEqual([['add_milk', 'passed']])
    }
  }, 600_000)

  test("a failing scenario of the README's spec: one error block per architecture, no frames inside node_modules/live-evals, the differing state path in the console and the report", () => {
    // The README's spec with a wrong expected state and without its own body: the default body asserts inside
    // the package, so only the frame filter keeps its frames out of what the user reads. Both architectures run
    // (the state mismatch was authoring.consumer.test.ts's own run of the responses architecture, this file's
    // of the client one), into a results folder of their own.
    const spec = (projectFiles.find((file) => file.path.endsWith('.spec.ts'))?.body ?? '')
      .replace("title: 'buy milk', done: false }] }", "title: 'buy bread', done: false }] }")
      .replace(/\n {2}\/\/ Optional: your own assertions[\s\S]*?\n {2}\},\n\}\)/, '\n})')
    expect(spec).toContain("'buy bread'")
    expect(spec).not.toContain('async test(')
    writeFileSync(join(project, 'specs/crawl/wrong-state.spec.ts'), spec)
    const resultsDir = join(project, 'results/wrong-state')
    const env = { ...userEnvironment(project), LIVE_EVALS_RESULTS_DIR: resultsDir }
    const ran = run(
      NODE,
      ['node_modules/vitest/vitest.mjs', 'run', 'specs/crawl/wrong-state.spec.ts'],
      project,
      env,
    )
    expect(ran.status, ran.output).toBe(1)
    const blocks = ran.output.split(/^ FAIL /m).slice(1)
    expect(blocks, ran.output).toHaveLength(2)
    for (const architecture of ['client', 'responses']) {
      const named = `Scenario add_milk (${architecture} assistant) did not complete the task`
      expect(
        blocks.filter((block) => block.includes(named)),
        ran.output,
      ).toHaveLength(1)
    }
    expect(ran.output).not.toMatch(/❯ .*node_modules\/live-evals\//)
    expect(ran.output).toContain('application_state: The final state must match the expectation.')
    expect(ran.output).toContain(STATE_DIFF)
    expect(ran.output).not.toContain('"initial":')
    const runs = readdirSync(resultsDir).filter((name) => !name.startsWith('.'))
    expect(runs).toHaveLength(2)
    for (const name of runs) {
      const report = readFileSync(join(resultsDir, name, 'report.html'), 'utf8')
      expect(report).toContain('expected vs final')
      expect(report).toContain(STATE_DIFF.replaceAll('"', '&quot;'))
    }
  }, 300_000)
})
