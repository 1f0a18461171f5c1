// The judge in the run, end to end without the internet: a CRAWL scenario in live mode, its GPT-Live endpoint the
// offline server (which plays the service: the session registered under the run's API key hears the request and
// answers with the assistant's offline behaviour), and the judge's openai client pointed at the loopback fake
// OpenAI server, which answers each dimension as the test scripts it. Real-time pacing, real WebSocket, real HTTP.
import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CrawlSettings } from '../../config/index.ts'
import {
  dimensionOf,
  type FakeJudgeApi,
  failing,
  passing,
  startFakeJudgeApi,
} from '../../grading/judge/judge.test-helpers.ts'
import { judgeOptionsFromSettings } from '../../grading/judge/options-from-settings.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { bundledCrawlScenario, executeScenario, freshRunDirectory } from '../single-turn/test-support.ts'
import { architectureFor } from './architecture-choice.ts'
import { syntheticCallerSource } from './caller-sources.ts'
import { ScenarioDetailsSchema } from './details.ts'
import type { ScenarioEnv, SingleTurnExecution } from './execution.ts'
import { liveCrawlSettings } from './judge-stage.test-helpers.ts'
import { readScenarioSnapshot } from './scenario-snapshot.ts'

const API_KEY = 'sk-test-JUDGESTAGE-live-key-4d2'
const SCENARIO = 'crawl_013_cancel_authorized_r100'
const PRIVATE_FACTS_KEY = 'availability_overrides'

let live: OfflineLiveServer
let scenario: Scenario
let settings: CrawlSettings
const folders: string[] = []
const apis: FakeJudgeApi[] = []
let runs = 0

beforeAll(async () => {
  live = await startOfflineLiveServer()
  scenario = await bundledCrawlScenario(SCENARIO)
  settings = await liveCrawlSettings({ apiKey: API_KEY, liveBaseURL: live.baseURL })
})

afterAll(async () => {
  await Promise.all([live?.close(), ...apis.map((api) => api.close())])
  // Retried: a conversation a timed-out test left running may still be writing into its folder.
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true, maxRetries: 3 })))
})

/**
 * One test's judge: its own fake OpenAI server (its own script and request log), and live runs each under a key
 * of their own, so the tests' live conversations (real-time pacing: about ten seconds each) run side by side.
 */
async function judgeHarness() {
  const api = await startFakeJudgeApi()
  apis.push(api)
  return {
    api,
    runLive: (judgeSettings: Partial<CrawlSettings['grading']> = {}, options: { deaf?: boolean } = {}) =>
      runLive(api, judgeSettings, options),
  }
}

/** One live execution of the scenario with the judge's client on `api`. */
async function runLive(
  api: FakeJudgeApi,
  judgeSettings: Partial<CrawlSettings['grading']>,
  options: { deaf?: boolean },
): Promise<{
  execution: SingleTurnExecution
  runDirectory: string
}> {
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  // The offline server tells sessions apart by their API key: one per run.
  runs += 1
  const apiKey = `${API_KEY}-${runs}`
  const runSettings: CrawlSettings = {
    ...settings,
    credentials: { ...settings.credentials, openai_api_key: apiKey },
    grading: { ...settings.grading, ...judgeSettings },
    // A service that hears nothing never answers: a one-second response timeout is enough to show it.
    execution: { ...settings.execution, ...(options.deaf ? { response_timeout_seconds: 1 } : {}) },
  }
  const architecture = architectureFor('responses', runSettings)
  const caller = await syntheticCallerSource.prepare(scenario, {})
  // The offline server stands in for the live service: the session the run opens with its API key hears exactly
  // what the caller says and answers with the assistant's offline behaviour (visible input only).
  live.registerSession(apiKey, {
    hearing: options.deaf ? [] : caller.hearing,
    behaviour: architecture.offlineBehaviour(assistantVisibleInput(scenario)),
  })
  const judge = judgeOptionsFromSettings(runSettings, { runDirectory, client: api.client })
  const env: ScenarioEnv = {
    settings: runSettings,
    runDirectory,
    offlineServer: null,
    architecture,
    callerSource: syntheticCallerSource,
    judge: judge === null ? null : { ...judge, retry: { sleep: async () => {} } },
  }
  const execution = await executeScenario(scenario, env, { callerAudio: caller })
  return { execution, runDirectory }
}

async function detailsOf(runDirectory: string) {
  const text = await readFile(join(runDirectory, 'transcripts', `${SCENARIO}.json`), 'utf8')
  return ScenarioDetailsSchema.parse(JSON.parse(text))
}

function judgeRequestsSince(api: FakeJudgeApi, before: number) {
  return api.server.requestsTo('POST', '/v1/responses').slice(before)
}

/**
 * Time a test gets per live conversation it holds: about ten seconds of real time, and up to twice that when a full
 * unit run keeps both cores busy. The unit project's 20 s default is one conversation with nothing to spare (the
 * cache test, which holds two in a row, timed out in a full run with five workers).
 */
const PER_CONVERSATION_MS = 30_000

// Concurrent: each test has its own judge server and session keys (see judgeHarness).
describe.concurrent('the semantic judge in a live run', { timeout: PER_CONVERSATION_MS }, () => {
  test('judges each applicable dimension once with store:false, and its grades reach the row and the details', async () => {
    const { api, runLive } = await judgeHarness()
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [passing(0.75)]
    const before = api.server.requestsTo('POST', '/v1/responses').length
    const { execution, runDirectory } = await runLive({ cache: false })
    const requests = judgeRequestsSince(api, before)

    // crawl_013 requires a tool: task_understanding and grounded_communication apply, one request each.
    expect(requests.map(dimensionOf).sort()).toEqual(['grounded_communication', 'task_understanding'])
    for (const request of requests) {
      expect(request.body).toMatchObject({
        store: false,
        model: 'gpt-5.6-terra',
        reasoning: { effort: 'medium' },
      })
      const text = JSON.stringify(request.body)
      // The judge sees the evaluator side (the expected answer) and never the executor's private facts.
      expect(text).toContain(JSON.stringify(scenario.expected.answer).slice(1, -1))
      expect(text).not.toContain(PRIVATE_FACTS_KEY)
    }

    const { row } = execution
    expect(row.status).toBe('passed')
    expect(row.error).toBeNull()
    expect(row.metrics.task.semantic_quality).toEqual({
      score: 0.875,
      dimensions: { task_understanding: 1, grounded_communication: 0.75 },
    })
    expect(row.assessment?.source).toBe('semantic_judge')
    expect(row.assessment?.checks).toContainEqual({
      id: 'semantic_outcome',
      status: 'passed',
      required: true,
    })
    expect(execution.grade?.semantic_grades.task_understanding).toMatchObject({ status: 'passed', score: 1 })
    expect(execution.grade?.semantic_grades.context_fidelity.status).toBe('not_applicable')

    const details = await detailsOf(runDirectory)
    expect(details.mode).toBe('live')
    expect(details.rubric_metrics).toEqual({
      task_understanding: { score: 1 },
      task_completion: { completed: true },
      semantic_quality: { score: 0.75 },
    })
    expect(details.semantic_grades).toMatchObject({
      grounded_communication: { status: 'passed', score: 0.75 },
    })
    expect(details.judge_usage_events).toHaveLength(2)
    for (const event of details.judge_usage_events) {
      expect(event).toMatchObject({ source: 'evaluation_judge', model: 'gpt-5.6-terra', cached: false })
      expect((event as { total_tokens: number }).total_tokens).toBeGreaterThan(0)
    }
    expect(details.semantic_judge).toMatchObject({ assessed: true, backend: 'responses', error: null })
    expect(details.public_business_facts).not.toHaveProperty(PRIVATE_FACTS_KEY)
    // The trace records the judge beside the deterministic assessment.
    const events = await readFile(join(runDirectory, 'events', `${SCENARIO}.jsonl`), 'utf8')
    expect(events).toContain('evaluation.semantic_judge.completed')
    // Sentinel the other way: nothing the session was sent holds the evaluator-only answer or criteria.
    const sent = events
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { direction?: string })
      .filter((record) => record.direction === 'sent')
    expect(sent.length).toBeGreaterThan(0)
    for (const evaluatorOnly of [scenario.expected.answer, ...scenario.expected.criteria]) {
      expect(JSON.stringify(sent)).not.toContain(evaluatorOnly)
    }
    // The validated scenario is kept beside the rows, so the run can be re-graded later.
    expect((await readScenarioSnapshot(runDirectory, SCENARIO)).expected).toEqual(scenario.expected)
  })

  test('task_understanding failing turns a deterministic pass into a failed row', async () => {
    const { api, runLive } = await judgeHarness()
    api.script.task_understanding = [failing(0.25, false)]
    api.script.grounded_communication = [passing(1)]
    const { execution } = await runLive({ cache: false })
    expect(execution.row.status).toBe('failed')
    expect(execution.row.error).toBeNull()
    expect(execution.row.assessment?.checks).toContainEqual({
      id: 'semantic_outcome',
      status: 'failed',
      required: true,
    })
    expect(execution.row.metrics.task.semantic_quality.score).toBe(0.625)
  })

  test('a judge that keeps failing is an infrastructure_error at semantic_judge, artifacts and spent usage kept', async () => {
    const { api, runLive } = await judgeHarness()
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [{ fault: 'server_error' }]
    const { execution, runDirectory } = await runLive({ cache: false })
    const { row } = execution
    expect(row.status).toBe('infrastructure_error')
    expect(row.error?.stage).toBe('semantic_judge')
    expect(execution.failure?.stage).toBe('semantic_judge')
    // What was measured stays: the audio metrics and every artifact, the details included.
    expect(row.metrics.audio.response_rate).not.toBeNull()
    for (const path of Object.values(row.artifacts)) expect(path).not.toBeNull()
    const details = await detailsOf(runDirectory)
    expect(details.semantic_judge).toMatchObject({ error: { stage: 'semantic_judge' } })
    // task_understanding's request completed before the failure: its usage is reported.
    expect(details.judge_usage_events.map((event) => (event as { dimension: string }).dimension)).toContain(
      'task_understanding',
    )
  })

  test('the cache answers a second judgment of the same evidence with zero usage', {
    timeout: 2 * PER_CONVERSATION_MS,
  }, async () => {
    const { api, runLive } = await judgeHarness()
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [passing(1)]
    const cacheDir = join(await freshRunDirectory(), 'judge-cache')
    folders.push(join(cacheDir, '..'))
    const first = await runLive({ cache: true, cache_dir: cacheDir })
    const before = api.server.requestsTo('POST', '/v1/responses').length
    const second = await runLive({ cache: true, cache_dir: cacheDir })
    const details = await detailsOf(second.runDirectory)
    // Live audio timing differs from run to run; the evidence holds text, tools and state, so it repeats.
    expect(first.execution.row.status).toBe('passed')
    expect(judgeRequestsSince(api, before)).toHaveLength(0)
    for (const event of details.judge_usage_events) {
      expect(event).toMatchObject({ cached: true, total_tokens: 0, attempts: 0 })
    }
    expect(second.execution.row.metrics.task.semantic_quality.score).toBe(1)
    // The cache holds evaluator-only evidence: a private folder of private files.
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700)
    const entries = await readdir(cacheDir)
    expect(entries).toHaveLength(2)
    for (const entry of entries) expect((await stat(join(cacheDir, entry))).mode & 0o777).toBe(0o600)
  })

  test('a conversation that timed out is not judged: nothing is sent and the dimensions say why', async () => {
    const { api, runLive } = await judgeHarness()
    const before = api.server.requestsTo('POST', '/v1/responses').length
    const { execution } = await runLive({ cache: false }, { deaf: true })
    expect(execution.observation?.termination_reason).toBe('response_timeout')
    expect(judgeRequestsSince(api, before)).toHaveLength(0)
    expect(execution.row).toMatchObject({ status: 'failed', error: null })
    expect(execution.grade?.semantic_grades.task_understanding).toMatchObject({
      status: 'not_assessed',
      rationale: 'Not judged: the conversation did not complete (response_timeout).',
    })
  })

  test("with grading disabled no request is sent; judge usage never enters the row's consumption", async () => {
    // Two judges, so the judged run's requests cannot be taken for the unjudged run's; both calls at once.
    const disabled = await judgeHarness()
    const enabled = await judgeHarness()
    enabled.api.script.task_understanding = [passing(1, true)]
    enabled.api.script.grounded_communication = [passing(1)]
    const [unjudged, judged] = await Promise.all([
      disabled.runLive({ enabled: false }),
      enabled.runLive({ cache: false }),
    ])
    expect(judgeRequestsSince(disabled.api, 0)).toHaveLength(0)
    const { execution } = unjudged
    expect(execution.grade?.semantic_grades.task_understanding).toMatchObject({
      status: 'not_assessed',
      score: null,
    })
    expect(execution.row.metrics.task.semantic_quality.score).toBeNull()
    const unjudgedDetails = await detailsOf(unjudged.runDirectory)
    expect(unjudgedDetails.judge_usage_events).toEqual([])
    expect(unjudgedDetails.rubric_metrics).toBeNull()
    expect(unjudgedDetails.semantic_judge).toBeNull()

    const judgedDetails = await detailsOf(judged.runDirectory)
    const judgeTokens = judgedDetails.judge_usage_events.reduce(
      (sum: number, event) => sum + ((event as { total_tokens: number | null }).total_tokens ?? 0),
      0,
    )
    expect(judgeTokens).toBeGreaterThan(0)
    // The same conversation with and without a judge costs the assistant's backend the same tokens (the
    // frontend's audio seconds follow the real-time clock, so they are not compared).
    const backend = (row: SingleTurnExecution['row']) => row.metrics.consumption.backend
    expect(backend(execution.row).total_tokens).toBeGreaterThan(0)
    expect(backend(judged.execution.row)).toEqual(backend(execution.row))
    expect(JSON.stringify(judged.execution.row.metrics.consumption)).not.toContain('evaluation_judge')
  })
})

test('without a client of its own the judge gets one per worker from the API key, and its cache beside the runs', () => {
  const options = judgeOptionsFromSettings(settings, { runDirectory: '/tmp/results/run_1' })
  expect(options?.client).toBeInstanceOf(OpenAI)
  expect(options?.client).toBe(judgeOptionsFromSettings(settings, { runDirectory: '/tmp/other' })?.client)
  expect(options?.limiter).toBe(judgeOptionsFromSettings(settings, { runDirectory: '/tmp/other' })?.limiter)
  expect(options?.cacheDir).toBe('/tmp/results/.judge_cache')
  const uncached = { ...settings, grading: { ...settings.grading, cache: false } }
  expect(judgeOptionsFromSettings(uncached, { runDirectory: '/tmp/r' })?.cacheDir).toBeNull()
  const offline = { ...settings, execution: { ...settings.execution, mode: 'offline' as const } }
  expect(judgeOptionsFromSettings(offline, { runDirectory: '/tmp/r' })).toBeNull()
})
