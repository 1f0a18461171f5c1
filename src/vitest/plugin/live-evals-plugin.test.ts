// The root options the plugin sets, read from a Vitest created in this process from the fixture project's
// config (nothing runs): the resolved config is what `vitest`, `vitest --watch` and `vitest --shard` would use.
import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createVitest, type Vitest } from 'vitest/node'
import { FIXTURE_CONFIG, ROOT, scratch } from '../child-vitest.test-helpers.ts'
import { CANONICAL_REPORTER, PACKAGE_MODULES } from '../project.ts'
import { hasDesktop } from './display.ts'
import { REAL_TIME_HEAP_FLAGS } from './real-time-heap.ts'
import { addCanonicalReporter, rerunOnInputChange } from './root-options.ts'

const saved = { ...process.env }
const opened: Vitest[] = []
let resultsDir = ''

beforeEach(async () => {
  const space = await scratch()
  resultsDir = join(space.dir, 'results')
  // The plugin reads the process environment, as it does under the vitest command.
  for (const name of Object.keys(process.env))
    if (/^(LIVE_EVALS_|OPENAI_)/.test(name)) delete process.env[name]
  for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'BROWSER']) delete process.env[name]
  Object.assign(process.env, space.env)
})

afterEach(async () => {
  await Promise.all(opened.splice(0).map((vitest) => vitest.close()))
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

async function vitestWith(options: {
  watch: boolean
  reporters?: string[]
  shard?: string
  config?: string
}): Promise<Vitest> {
  const vitest = await createVitest({ root: ROOT, config: resolve(ROOT, FIXTURE_CONFIG), ...options })
  opened.push(vitest)
  return vitest
}

test('a run gets the canonical reporter, attachments with the results, served by the UI, and no browser', async () => {
  const vitest = await vitestWith({ watch: false, reporters: ['dot'] })
  const project = vitest.projects[0]
  const attachments = join(resultsDir, '.attachments')
  expect(project?.config.attachmentsDir).toBe(attachments)
  expect(vitest.config.attachmentsDir).toBe(attachments)
  expect(vitest.vite.config.server.fs.allow).toContain(attachments)
  const [dot, canonical, ...more] = vitest.config.reporters
  expect(dot).toEqual(['dot', {}])
  expect(canonical?.constructor.name).toBe('CanonicalReporter')
  expect(more).toEqual([])
  // No display in this process (removed below): on Linux that is a server, where nothing may open a browser.
  expect(vitest.config.open).toBe(hasDesktop())
  expect(process.env.BROWSER === 'none').toBe(!hasDesktop())
  // From the fixture TOML: one scenario at a time, the response timeout plus the single-turn allowance.
  expect(project?.config.maxConcurrency).toBe(1)
  expect(project?.config.testTimeout).toBe(30_000 + 60_000)
  expect(project?.getProvidedContext().liveEvalsProject?.startup.ok).toBe(true)
})

test('the canonical reporter is added once, beside one the user named by its path', async () => {
  const vitest = await vitestWith({ watch: false, reporters: ['dot'] })
  await addCanonicalReporter(vitest, CANONICAL_REPORTER)
  expect(vitest.config.reporters).toHaveLength(2)
  const named = await vitestWith({ watch: false, reporters: ['dot', CANONICAL_REPORTER] })
  expect(named.config.reporters.map((entry) => (Array.isArray(entry) ? entry[0] : entry))).toEqual([
    'dot',
    CANONICAL_REPORTER,
  ])
})

test("live-evals' own modules are Node's to import in the workers; spec and test files stay Vite's", async () => {
  const vitest = await vitestWith({ watch: false })
  expect(vitest.projects[0]?.config.server.deps?.external).toContainEqual(PACKAGE_MODULES)
  const own = ['src/vitest/runner.ts', 'src/vitest/setup.ts', 'src/index.ts', 'reporters/canonical.ts']
  for (const file of own) expect(PACKAGE_MODULES.test(resolve(ROOT, file)), file).toBe(true)
  const notOwn = [
    resolve(ROOT, 'src/vitest/fixtures/tiny.spec.ts'),
    resolve(ROOT, 'src/vitest/verdict.test.ts'),
    resolve(ROOT, 'specs/crawl/reservations.spec.ts'),
    resolve(ROOT, 'specs/crawl/helpers.ts'),
    resolve(ROOT, 'bench/report.ts'),
    resolve(ROOT, '../other-checkout/src/index.ts'),
  ]
  for (const file of notOwn) expect(PACKAGE_MODULES.test(file), file).toBe(false)
})

test('watch mode reruns the spec files when the dataset or the TOML file changes', async () => {
  const vitest = await vitestWith({ watch: true })
  const triggers = vitest.config.watchTriggerPatterns ?? []
  const dataset = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
  const toml = join(ROOT, 'src/vitest/fixtures/crawl.toml')
  for (const file of [dataset, toml]) {
    const trigger = triggers.find((candidate) => candidate.pattern.test(file))
    expect(trigger, file).toBeDefined()
    expect(trigger?.testsToRun(file, [file])).toEqual([join(ROOT, 'src/vitest/fixtures/tiny.spec.ts')])
  }
  expect(
    triggers.some((candidate) => candidate.pattern.test(join(ROOT, 'src/vitest/fixtures/other.json'))),
  ).toBe(false)
})

test('asked again at a rerun, watch mode adds a trigger only for a file it does not watch yet', async () => {
  const vitest = await vitestWith({ watch: true })
  const project = vitest.projects[0]
  if (project === undefined) throw new Error('no project')
  const triggers = vitest.config.watchTriggerPatterns ?? []
  const before = triggers.length
  const dataset = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
  const toml = join(ROOT, 'src/vitest/fixtures/crawl.toml')
  const other = join(ROOT, 'src/vitest/fixtures/other-dataset.json')
  await rerunOnInputChange(vitest, project, [other, toml])
  await rerunOnInputChange(vitest, project, [dataset, other, toml])
  expect(triggers).toHaveLength(before + 1)
  expect(triggers.filter((candidate) => candidate.pattern.test(other))).toHaveLength(1)
})

test('--shard keeps Vitest sharding but gives the spec file to every shard, labelled by shard', async () => {
  const vitest = await vitestWith({ watch: false, shard: '2/3' })
  expect(vitest.config.shard).toEqual({ index: 2, count: 3 })
  expect(vitest.config.passWithNoTests).toBe(true)
  expect(vitest.config.mergeReportsLabel).toBe('shard-2-of-3')
  const project = vitest.projects[0]
  if (project === undefined) throw new Error('no project')
  const spec = project.createSpecification(join(ROOT, 'src/vitest/fixtures/tiny.spec.ts'))
  const sequencer = new vitest.config.sequence.sequencer(vitest)
  expect(await sequencer.shard([spec])).toEqual([spec])
})

test('a setting that does not resolve is kept for the global setup to report, not thrown', async () => {
  process.env.LIVE_EVALS_CONCURRENCY = 'many'
  const vitest = await vitestWith({ watch: false })
  const startup = vitest.projects[0]?.getProvidedContext().liveEvalsProject?.startup
  expect(startup?.ok).toBe(false)
  expect(String(startup?.ok === false ? startup.error : '')).toMatch(/LIVE_EVALS_CONCURRENCY/)
})

test("a real-time project's forked workers start with the real-time heap flags; a virtual-clock one's as Node starts", async () => {
  const virtual = await vitestWith({ watch: false })
  expect(virtual.projects[0]?.config.pool).toBe('forks')
  for (const flag of REAL_TIME_HEAP_FLAGS) expect(virtual.projects[0]?.config.execArgv).not.toContain(flag)

  // The fixture project with its audio paced in real time (offline), as a live run paces it.
  const fixture = resolve(ROOT, 'src/vitest/fixtures')
  const toml = join(resultsDir, '..', 'real-time.toml')
  await writeFile(
    toml,
    `[dataset]\npath = ${JSON.stringify(join(fixture, 'tiny-dataset.json'))}\n[execution]\nmode = "offline"\n[audio]\nreal_time = true\n`,
  )
  const config = join(resultsDir, '..', 'vitest.real-time.config.mts')
  await writeFile(
    config,
    [
      `import { liveEvalsProject } from ${JSON.stringify(resolve(ROOT, 'src/vitest/project.ts'))}`,
      `export default { test: { projects: [liveEvalsProject({ phase: 'crawl', config: ${JSON.stringify(toml)}, include: ['src/vitest/fixtures/*.spec.ts'] })] } }`,
      '',
    ].join('\n'),
  )
  const realTime = await vitestWith({ watch: false, config })
  expect(realTime.projects[0]?.config.execArgv).toEqual(expect.arrayContaining([...REAL_TIME_HEAP_FLAGS]))
})
