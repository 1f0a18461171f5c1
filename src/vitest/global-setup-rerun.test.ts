// The global setup's watch-rerun hook, in this process: a Vitest created in watch mode from the fixture project, or
// from a CRAWL and a WALK project (its plugin configures the projects; nothing runs), the global setup called with
// each project, and the hooks they register called as Vitest calls them at a rerun, after the test edited the
// settings they read; then the canonical reporter told of the rerun as Vitest tells it at its start and end.
import { existsSync } from 'node:fs'
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  onTestFinished,
  test,
  vi,
} from 'vitest'
import {
  createVitest,
  type Reporter,
  type TestProject,
  type TestSpecification,
  type Vitest,
} from 'vitest/node'
import { unusedLoopbackPort } from '../testing/unused-port.test-helpers.ts'
import { FIXTURE_CONFIG, lines, ROOT, runDirectoriesIn, scratch } from './child-vitest.test-helpers.ts'
import liveEvalsGlobalSetup from './global-setup.ts'
import { REAL_TIME_HEAP_FLAGS } from './plugin/real-time-heap.ts'

const FIXTURES = join(ROOT, 'src/vitest/fixtures')
const saved = { ...process.env }
const opened: Vitest[] = []
let space: { dir: string; env: Record<string, string> }
let toml = ''

/** A fresh scratch folder with copies of the CRAWL fixture's dataset and config.toml, for one watch-mode Vitest. */
async function newSpace(): Promise<void> {
  space = await scratch()
  toml = join(space.dir, 'crawl.toml')
  await copyFile(join(FIXTURES, 'tiny-dataset.json'), join(space.dir, 'tiny-dataset.json'))
  await copyFile(join(FIXTURES, 'crawl.toml'), toml)
}

/** The plugin and the rerun read the process environment, as they do under the vitest command: the space's. */
function useSpaceEnvironment(): void {
  for (const name of Object.keys(process.env))
    if (/^(LIVE_EVALS_|OPENAI_)/.test(name)) delete process.env[name]
  Object.assign(process.env, space.env, { LIVE_EVALS_CONFIG: toml, OPENAI_ASSISTANT_MODE: 'responses' })
}

afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

const closeOpened = async () => {
  await Promise.all(opened.splice(0).map((vitest) => vitest.close()))
}

type RerunHook = (specifications: TestSpecification[]) => Promise<void> | void

/** Marks the canonical reporter the plugin adds (src/vitest/plugin/root-options.ts). */
const CANONICAL_REPORTER = Symbol.for('live-evals.canonical-reporter')

const PROCESS_EVENTS = ['unhandledRejection', 'SIGINT', 'SIGTERM', 'exit'] as const

/**
 * The Vitest made here must not own this worker's process: its logger ends the process on any unhandled rejection,
 * and on SIGINT or SIGTERM. In a full unit run a rejection from elsewhere in the worker ended it so ("process.exit
 * unexpectedly called"). What creating it added to those events is taken off again; the worker's own Vitest
 * reports such a rejection instead.
 */
async function withoutProcessHandlers<T>(create: () => Promise<T>): Promise<T> {
  const emitter: NodeJS.EventEmitter = process
  const before = new Map(PROCESS_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]))
  try {
    return await create()
  } finally {
    for (const event of PROCESS_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void)
      }
    }
  }
}

interface Watched {
  vitest: Vitest
  /** Each live-evals project of the config, set up by its global setup for its first run. */
  projects: TestProject[]
  /**
   * Calls every rerun hook the global setups registered, as Vitest calls them at a rerun of `files` (by default every
   * spec file: the `r` key and the UI's "rerun all" pass them all): with each project's specification of each file.
   */
  rerun(files?: readonly string[]): Promise<TestSpecification[]>
  /** What the canonical reporter printed at the end of a run of `specifications` in which no test ran. */
  reportEnd(specifications: TestSpecification[], reason: 'passed' | 'failed'): Promise<string>
  printed(): string
}

/** A watch-mode Vitest made from `config`, its projects set up for their first run, and what it printed. */
async function watched(config: string): Promise<Watched> {
  let printed = ''
  const sink = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk)
      done()
    },
  })
  const vitest = await withoutProcessHandlers(() =>
    createVitest({ root: ROOT, config, watch: true }, {}, { stdout: sink, stderr: sink }),
  )
  opened.push(vitest)
  // The test calls the rerun hooks itself. Left to watch, this Vitest would schedule a rerun of its own for the
  // config.toml the test edits (the plugin made it a trigger), firing after the test ended into a state that never
  // ran (an unhandled TypeError in its reporter's onWatcherRerun, seen under load).
  vitest.watcher.unregisterWatcher()
  // A project's onTestsRerun registers its hook with its Vitest: one hook per project, all called at each rerun.
  const hooks: RerunHook[] = []
  vi.spyOn(vitest, 'onTestsRerun').mockImplementation((hook) => {
    hooks.push(hook)
  })
  for (const project of vitest.projects) vitest.onClose(await liveEvalsGlobalSetup(project))
  if (hooks.length !== vitest.projects.length) throw new Error('a global setup registered no rerun hook')
  const all = await vitest.globTestSpecifications()
  // The plugin added it to the config's reporters, as an instance.
  const reporter = vitest.config.reporters.find(
    (entry): entry is Reporter => typeof entry === 'object' && CANONICAL_REPORTER in entry,
  )
  if (reporter === undefined) throw new Error('the plugin added no canonical reporter')
  await reporter.onInit?.(vitest)
  return {
    vitest,
    projects: vitest.projects,
    async rerun(files = [...new Set(all.map((spec) => spec.moduleId))]) {
      // As Vitest's rerunFiles and its watcher build them.
      const specifications = files.flatMap((file) => vitest.getModuleSpecifications(file))
      await Promise.all(hooks.map((hook) => hook(specifications)))
      return specifications
    },
    async reportEnd(specifications, reason) {
      const from = printed.length
      await reporter.onTestRunStart?.(specifications)
      await reporter.onTestRunEnd?.([], [], reason)
      return printed.slice(from)
    },
    printed: () => printed,
  }
}

/** The fixture project set up for its first run, the rerun of its spec files, and what it printed. */
async function watchedProject(): Promise<{
  project: TestProject
  rerun: () => Promise<void>
  printed: () => string
}> {
  const { projects, rerun, printed } = await watched(resolve(ROOT, FIXTURE_CONFIG))
  const [project] = projects
  if (project === undefined) throw new Error('no project')
  return {
    project,
    rerun: async () => {
      await rerun()
    },
    printed,
  }
}

// One watch-mode Vitest for the tests of a config, as a session reruns one Vitest again and again. A Vitest per test
// (five, not two) cost this file 5.1 own CPU s instead of 3.6 (`npx node bench/test-cpu.ts --before <main checkout>
// --rounds 2 src/vitest/global-setup-rerun.test.ts`). Each test also holds on a fresh Vitest (alone, with -t); in
// this order each starts where the one before left a planned run (the live rerun that withdraws it comes last).
/** Live mode from here on, every endpoint at `endpoint` (a loopback port nothing answers on, in these tests). */
function goLiveAgainst(endpoint: string): void {
  Object.assign(process.env, {
    LIVE_EVALS_MODE: 'live',
    OPENAI_API_KEY: 'sk-test-RERUN-key-7c1d',
    OPENAI_LIVE_ENDPOINT: endpoint,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    OPENAI_BASE_URL: endpoint,
  })
}

/**
 * One watch-mode Vitest for a describe block's tests, made by `start` in a new space, each test starting in the
 * block's environment (`useEnvironment`); the value, once the block's beforeAll has made it.
 */
function watchedPerBlock<T>(useEnvironment: () => void, start: () => Promise<T>): () => T {
  let made: { value: T } | null = null
  beforeAll(async () => {
    await newSpace()
    useEnvironment()
    made = { value: await start() }
  })
  beforeEach(useEnvironment)
  afterAll(closeOpened)
  return () => {
    if (made === null) throw new Error('the watch-mode Vitest of this block did not start')
    return made.value
  }
}

describe('the fixture project', () => {
  const watched = watchedPerBlock(useSpaceEnvironment, watchedProject)

  test('a rerun after an edited config.toml runs with its concurrency, timeout and heap', async () => {
    const { project, rerun } = watched()
    expect(project.serializedConfig).toMatchObject({ maxConcurrency: 1, testTimeout: 30_000 + 60_000 })

    const settings = await readFile(toml, 'utf8')
    await writeFile(
      toml,
      settings
        .replace('concurrency = 1', 'concurrency = 3')
        .replace('response_timeout_seconds = 30.0', 'response_timeout_seconds = 12.0')
        .replace('real_time = false', 'real_time = true'),
    )
    // The block's Vitest outlives this test: the settings are put back and rerun even when a check below fails, so
    // the next tests do not run on the edited ones (inside the test, where its environment still holds).
    try {
      await rerun()
      // What the rerun's workers get: Vitest serialises the project's config for each run.
      expect(project.serializedConfig).toMatchObject({
        maxConcurrency: 3,
        testTimeout: 12_000 + 60_000,
        sequence: { concurrent: true },
      })
      expect(project.config.execArgv).toEqual(expect.arrayContaining([...REAL_TIME_HEAP_FLAGS]))
      expect(project.getProvidedContext().liveEvalsRun?.state).toBe('planned')
    } finally {
      await writeFile(toml, settings)
      await rerun()
    }
    expect(project.serializedConfig).toMatchObject({ maxConcurrency: 1, sequence: { concurrent: false } })
    for (const flag of REAL_TIME_HEAP_FLAGS) expect(project.config.execArgv).not.toContain(flag)
  })

  test('a rerun asked for while the previous run is under way releases its folders only once it has ended', async () => {
    const { project, rerun } = watched()
    const results = space.env.LIVE_EVALS_RESULTS_DIR as string
    const [first, ...others] = await runDirectoriesIn(results)
    expect(first).toBeDefined()
    expect(others).toEqual([])
    // The previous run, still writing: it ends when the test says so.
    let endRun = () => {}
    const runEnded = new Promise<void>((ended) => (endRun = ended))
    let waited = () => {}
    const waiting = new Promise<'waiting'>((reached) => (waited = () => reached('waiting')))
    const wait = vi.spyOn(project.vitest, 'waitForTestRunEnd').mockImplementation(() => {
      waited()
      return runEnded
    })
    // The block's Vitest outlives this test: a failure before the restore below must not leave the next test's
    // reruns waiting on this one's promise.
    onTestFinished(() => wait.mockRestore())

    const rerunning = rerun().then(() => 'rerun' as const)
    expect(await Promise.race([waiting, rerunning])).toBe('waiting')
    expect(await runDirectoriesIn(results)).toEqual([first])
    const run = project.getProvidedContext().liveEvalsRun
    expect(run?.state === 'planned' && run.plan.runs[0]?.directory).toBe(join(results, first ?? ''))

    endRun()
    await rerunning
    wait.mockRestore()
    const after = await runDirectoriesIn(results)
    expect(after).toHaveLength(1)
    expect(after).not.toContain(first)
  })

  test('a live rerun whose endpoint does not answer fails like one that cannot be planned, leaving no run folder', async () => {
    const { project, rerun, printed } = watched()
    const port = await unusedLoopbackPort()
    const endpoint = `http://127.0.0.1:${port}/v1`
    goLiveAgainst(endpoint)
    await rerun()
    // The problem instead of a plan: nothing of the previous run's plan is left for the rerun's files to use.
    const run = project.getProvidedContext().liveEvalsRun
    if (run?.state !== 'not_started') throw new Error(`the live rerun was not withdrawn: ${run?.state}`)
    expect(run.problem).toMatch(/^live-evals: the CRAWL run cannot start/)
    expect(run.problem).toContain(`127.0.0.1:${port}`)
    expect(printed()).toContain(run.problem)
    // The first run's folders went at the rerun, the live rerun's when its check failed.
    expect(await runDirectoriesIn(space.env.LIVE_EVALS_RESULTS_DIR as string)).toEqual([])
  })
})

/**
 * A CRAWL and a WALK project, offline, each on its own config.toml (the scratch copy of the CRAWL fixture's, the
 * robustness fixture's for WALK) and spec file.
 */
async function crawlAndWalk(): Promise<Watched & { crawl: TestProject; walk: TestProject }> {
  const config = join(space.dir, 'vitest.crawl-and-walk.config.mts')
  const project = (phase: string, settings: string, spec: string) =>
    `liveEvalsProject({ phase: '${phase}', name: '${phase}-watch', config: ${JSON.stringify(settings)}, include: [${JSON.stringify(spec)}] }),`
  await writeFile(
    config,
    [
      `import { liveEvalsProject } from ${JSON.stringify(join(ROOT, 'src/vitest/project.ts'))}`,
      'export default { test: { projects: [',
      project('crawl', toml, 'src/vitest/fixtures/tiny.spec.ts'),
      project(
        'walk',
        join(ROOT, 'src/vitest/plugin/robustness-fixture/walk.toml'),
        'src/vitest/plugin/robustness-fixture/robustness.spec.ts',
      ),
      '] } }',
      '',
    ].join('\n'),
  )
  const session = await watched(config)
  const named = (name: string) => {
    const found = session.projects.find((project) => project.name === name)
    if (found === undefined) throw new Error(`no project ${name}`)
    return found
  }
  return { ...session, crawl: named('crawl-watch'), walk: named('walk-watch') }
}

/** The folder of the project's current run, or the state of a run that has none. */
function runOf(project: TestProject): string {
  const run = project.getProvidedContext().liveEvalsRun
  return run?.state === 'planned' ? (run.plan.runs[0]?.directory ?? 'no run') : String(run?.state)
}

const specFilesOf = async (project: TestProject) => (await project.globTestFiles()).testFiles
/** How many times a phase's run was planned: each plan prints its start line (plugin/run-line.ts). */
const plannings = (printed: string, phase: string) => printed.split(`live-evals: ${phase} `).length - 1

describe('a CRAWL and a WALK project', () => {
  const projects = watchedPerBlock(() => {
    useSpaceEnvironment()
    delete process.env.LIVE_EVALS_CONFIG // each project names its own config.toml
  }, crawlAndWalk)

  test("a rerun of one project's spec files replans that project only; a rerun of every file replans each", async () => {
    const { vitest, crawl, walk, rerun, reportEnd, printed } = projects()
    const [firstCrawl, firstWalk] = [runOf(crawl), runOf(walk)]
    expect([plannings(printed(), 'CRAWL'), plannings(printed(), 'WALK')]).toEqual([1, 1])

    // A save that reruns the CRAWL spec file: WALK runs nothing, and keeps its run and its folder.
    const crawlOnly = await rerun(await specFilesOf(crawl))
    expect(runOf(crawl)).not.toBe(firstCrawl)
    expect(runOf(walk)).toBe(firstWalk)
    expect(existsSync(firstWalk)).toBe(true)
    expect([plannings(printed(), 'CRAWL'), plannings(printed(), 'WALK')]).toEqual([2, 1])
    // Nor is WALK's run part of what the reporter closes: only CRAWL's new run is said to have run nothing.
    const closed = lines(await reportEnd(crawlOnly, 'passed'))
    expect(closed.filter((line) => line.includes('No scenario ran'))).toHaveLength(1)
    expect(closed).toContain('0 passed, 0 failed')

    // A rerun of no spec file of theirs (here none at all) plans nothing either, but still waits for the running run
    // to end: Vitest reports the start of a UI or API rerun once the hooks are done, and the reporter takes the
    // projects of the run that ends next from that start.
    const secondCrawl = runOf(crawl)
    let endRun = () => {}
    const runEnded = new Promise<void>((ended) => (endRun = ended))
    let waited = () => {}
    const waiting = new Promise<'waiting'>((reached) => (waited = () => reached('waiting')))
    const wait = vi.spyOn(vitest, 'waitForTestRunEnd').mockImplementation(() => {
      waited()
      return runEnded
    })
    // The block's Vitest outlives this test: a failure before the restore below must not leave the next test's
    // reruns waiting on this one's promise.
    onTestFinished(() => wait.mockRestore())
    const rerunning = rerun([]).then(() => 'rerun' as const)
    expect(await Promise.race([waiting, rerunning])).toBe('waiting')
    endRun()
    await rerunning
    wait.mockRestore()
    expect([runOf(crawl), runOf(walk)]).toEqual([secondCrawl, firstWalk])
    expect([plannings(printed(), 'CRAWL'), plannings(printed(), 'WALK')]).toEqual([2, 1])

    // Every file (the `r` key, the UI's "rerun all"): each project plans a new run.
    await rerun()
    expect(runOf(crawl)).not.toBe(secondCrawl)
    expect(runOf(walk)).not.toBe(firstWalk)
    expect([existsSync(runOf(crawl)), existsSync(runOf(walk))]).toEqual([true, true])
    expect([plannings(printed(), 'CRAWL'), plannings(printed(), 'WALK')]).toEqual([3, 2])
  })

  test('a live rerun checks the endpoints of the projects it reruns only: another is not checked, nor said not to start', async () => {
    const { crawl, walk, rerun, reportEnd, printed } = projects()
    const firstWalk = runOf(walk)
    // Both phases now run live against an endpoint that does not answer: a phase that checked it could not start.
    const endpoint = `http://127.0.0.1:${await unusedLoopbackPort()}/v1`
    goLiveAgainst(endpoint)

    const crawlOnly = await rerun(await specFilesOf(crawl))
    expect(runOf(crawl)).toBe('not_started')
    expect(printed()).toContain('live-evals: the CRAWL run cannot start')
    expect(printed()).not.toContain('live-evals: the WALK run cannot start')
    expect(runOf(walk)).toBe(firstWalk)
    const closed = lines(await reportEnd(crawlOnly, 'failed'))
    expect(closed.filter((line) => /^\d+ passed, \d+ failed/.test(line))).toEqual([
      '0 passed, 0 failed; the CRAWL run did not start (its problem is above), nothing of it was written',
    ])
    expect(closed.filter((line) => line.includes('No scenario ran'))).toEqual([])
  })
})
