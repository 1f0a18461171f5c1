// The global setup's watch-rerun hook, in this process: a Vitest created from the fixture project in watch mode
// (its plugin configures the project; nothing runs), the global setup called with its project, and the hook it
// registers called as Vitest calls it at a rerun, after the test edited the settings it reads.
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createVitest, type TestProject, type Vitest } from 'vitest/node'
import { unusedLoopbackPort } from '../testing/unused-port.test-helpers.ts'
import { FIXTURE_CONFIG, ROOT, runDirectoriesIn, scratch } from './child-vitest.test-helpers.ts'
import liveEvalsGlobalSetup from './global-setup.ts'
import { REAL_TIME_HEAP_FLAGS } from './plugin/real-time-heap.ts'

const FIXTURES = join(ROOT, 'src/vitest/fixtures')
const saved = { ...process.env }
const opened: Vitest[] = []
let space: { dir: string; env: Record<string, string> }
let toml = ''

beforeEach(async () => {
  space = await scratch()
  toml = join(space.dir, 'crawl.toml')
  await copyFile(join(FIXTURES, 'tiny-dataset.json'), join(space.dir, 'tiny-dataset.json'))
  await copyFile(join(FIXTURES, 'crawl.toml'), toml)
  // The plugin and the rerun read the process environment, as they do under the vitest command.
  for (const name of Object.keys(process.env))
    if (/^(LIVE_EVALS_|OPENAI_)/.test(name)) delete process.env[name]
  Object.assign(process.env, space.env, { LIVE_EVALS_CONFIG: toml, OPENAI_ASSISTANT_MODE: 'responses' })
})

afterEach(async () => {
  await Promise.all(opened.splice(0).map((vitest) => vitest.close()))
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

type RerunHook = () => Promise<void>

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

/** The fixture project set up for its first run, the rerun hook its global setup registered, and what it printed. */
async function watchedProject(): Promise<{ project: TestProject; rerun: RerunHook; printed: () => string }> {
  let printed = ''
  const sink = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk)
      done()
    },
  })
  const vitest = await withoutProcessHandlers(() =>
    createVitest(
      { root: ROOT, config: resolve(ROOT, FIXTURE_CONFIG), watch: true },
      {},
      { stdout: sink, stderr: sink },
    ),
  )
  opened.push(vitest)
  // The test calls the rerun hook itself. Left to watch, this Vitest would schedule a rerun of its own for the
  // config.toml the test edits (the plugin made it a trigger), firing after the test ended into a state that never
  // ran (an unhandled TypeError in its reporter's onWatcherRerun, seen under load).
  vitest.watcher.unregisterWatcher()
  const project = vitest.projects[0]
  if (project === undefined) throw new Error('no project')
  const registered = vi.spyOn(project, 'onTestsRerun').mockImplementation(() => {})
  const teardown = await liveEvalsGlobalSetup(project)
  vitest.onClose(teardown)
  const rerun = registered.mock.calls[0]?.[0] as RerunHook | undefined
  if (rerun === undefined) throw new Error('the global setup registered no rerun hook')
  return { project, rerun, printed: () => printed }
}

test('a rerun after an edited config.toml runs with its concurrency, timeout and heap', async () => {
  const { project, rerun } = await watchedProject()
  expect(project.serializedConfig).toMatchObject({ maxConcurrency: 1, testTimeout: 30_000 + 60_000 })

  const settings = await readFile(toml, 'utf8')
  await writeFile(
    toml,
    settings
      .replace('concurrency = 1', 'concurrency = 3')
      .replace('response_timeout_seconds = 30.0', 'response_timeout_seconds = 12.0')
      .replace('real_time = false', 'real_time = true'),
  )
  await rerun()
  // What the rerun's workers get: Vitest serialises the project's config for each run.
  expect(project.serializedConfig).toMatchObject({
    maxConcurrency: 3,
    testTimeout: 12_000 + 60_000,
    sequence: { concurrent: true },
  })
  expect(project.config.execArgv).toEqual(expect.arrayContaining([...REAL_TIME_HEAP_FLAGS]))
  expect(project.getProvidedContext().liveEvalsRun?.state).toBe('planned')

  await writeFile(toml, settings)
  await rerun()
  expect(project.serializedConfig).toMatchObject({ maxConcurrency: 1, sequence: { concurrent: false } })
  for (const flag of REAL_TIME_HEAP_FLAGS) expect(project.config.execArgv).not.toContain(flag)
})

test('a live rerun whose endpoint does not answer fails like one that cannot be planned, leaving no run folder', async () => {
  const { project, rerun, printed } = await watchedProject()
  const port = await unusedLoopbackPort()
  const endpoint = `http://127.0.0.1:${port}/v1`
  Object.assign(process.env, {
    LIVE_EVALS_MODE: 'live',
    OPENAI_API_KEY: 'sk-test-RERUN-key-7c1d',
    OPENAI_LIVE_ENDPOINT: endpoint,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    OPENAI_BASE_URL: endpoint,
  })
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

test('a rerun asked for while the previous run is under way releases its folders only once it has ended', async () => {
  const { project, rerun } = await watchedProject()
  const results = space.env.LIVE_EVALS_RESULTS_DIR as string
  const [first, ...others] = await runDirectoriesIn(results)
  expect(first).toBeDefined()
  expect(others).toEqual([])
  // The previous run, still writing: it ends when the test says so.
  let endRun = () => {}
  const runEnded = new Promise<void>((ended) => (endRun = ended))
  let waited = () => {}
  const waiting = new Promise<'waiting'>((reached) => (waited = () => reached('waiting')))
  vi.spyOn(project.vitest, 'waitForTestRunEnd').mockImplementation(() => {
    waited()
    return runEnded
  })

  const rerunning = rerun().then(() => 'rerun' as const)
  expect(await Promise.race([waiting, rerunning])).toBe('waiting')
  expect(await runDirectoriesIn(results)).toEqual([first])
  const run = project.getProvidedContext().liveEvalsRun
  expect(run?.state === 'planned' && run.plan.runs[0]?.directory).toBe(join(results, first ?? ''))

  endRun()
  await rerunning
  const after = await runDirectoriesIn(results)
  expect(after).toHaveLength(1)
  expect(after).not.toContain(first)
})
