// Live mode, wired end to end without the internet: the fixture project runs in a child Vitest with
// LIVE_EVALS_MODE=live and a (fake) API key, its GPT-Live endpoint pointed at our offline server (any bearer
// accepted) and the openai SDK's base URL (text-to-speech, Responses) at the loopback test server. Nothing is
// registered with the offline server, so it hears nothing and never answers: the honest result is a response
// timeout in every test, recorded as a live run. It runs twice to show the speech cache is used, then a third
// time, responses architecture only, with LIVE_EVALS_REFRESH_AUDIO=true to show refresh bypasses the cache.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { responsesRoute } from '../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  ROOT,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from './child-vitest.test-helpers.ts'

// Sentinel secrets: shaped like real keys, so the redaction that looks for key patterns is exercised too.
const API_KEY = 'sk-test-LIVEWIRING-api-key-5f1c2a9e'
const RESPONSES_KEY = 'sk-test-LIVEWIRING-responses-key-77d0b3'
const DATASET = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
const SPEECH = ['POST', '/v1/audio/speech'] as const

let live: OfflineLiveServer
let openai: ResponsesServer
let dir = ''
let cacheDir = ''
let first: ChildRun = { code: null, output: '' }
let second: ChildRun = { code: null, output: '' }
let refreshed: ChildRun = { code: null, output: '' }
let speechAfterFirst = 0
let speechAfterSecond = 0
/** The two cache-reading runs' documents, by run name. */
const documents = new Map<string, ResultsDocument>()
/** The refresh run's documents, by run name. */
const refreshDocuments = new Map<string, ResultsDocument>()

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

const tomlText = (tomlLines: string[]) => `${tomlLines.join('\n')}\n`

type RecordedRequest = ReturnType<ResponsesServer['requestsTo']>[number]
const spokenTexts = (requests: RecordedRequest[]) =>
  requests.map((request) => (request.body as { input: string }).input).sort()

async function expectedAnswers(): Promise<string[]> {
  const dataset = JSON.parse(await readFile(DATASET, 'utf8')) as {
    scenarios: { expected: { answer: string } }[]
  }
  return dataset.scenarios.map((scenario) => scenario.expected.answer)
}

async function datasetTexts(): Promise<string[]> {
  const dataset = JSON.parse(await readFile(DATASET, 'utf8')) as { scenarios: { input: { text: string } }[] }
  return dataset.scenarios.map((scenario) => scenario.input.text).sort()
}

beforeAll(async () => {
  live = await startOfflineLiveServer({ acceptAnyToken: true })
  openai = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({
        respond: () => ({ output: [{ type: 'message', text: 'ok' }] }),
      }),
    },
  })
  const scratchSpace = await scratch()
  dir = scratchSpace.dir
  cacheDir = join(dir, 'speech-cache')
  // A TOML of its own: a one-second response timeout, a private speech cache, all four tests at once.
  const config = join(dir, 'crawl-live.toml')
  await writeFile(
    config,
    tomlText([
      '[dataset]',
      `path = ${JSON.stringify(DATASET)}`,
      '[execution]',
      'concurrency = 4',
      'response_timeout_seconds = 1.0',
      '[audio]',
      `cache_dir = ${JSON.stringify(cacheDir)}`,
    ]),
  )
  const env = {
    ...scratchSpace.env,
    LIVE_EVALS_CONFIG: config,
    LIVE_EVALS_MODE: 'live',
    OPENAI_API_KEY: API_KEY,
    OPENAI_RESPONSES_API_KEY: RESPONSES_KEY,
    OPENAI_LIVE_ENDPOINT: live.baseURL,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    // The openai SDK's own variable: text-to-speech and the client backend read it; GPT-Live uses its endpoint.
    OPENAI_BASE_URL: openai.baseURL,
  }
  // The blob and json reports carry every test file's meta (the run stamp included): they must hold no key.
  const reports = join(dir, 'reports')
  first = await runVitest(
    [
      'run',
      '--config',
      FIXTURE_CONFIG,
      '--reporter=default',
      '--reporter=blob',
      '--reporter=json',
      `--outputFile.blob=${join(reports, 'blob.json')}`,
      `--outputFile.json=${join(reports, 'report.json')}`,
    ],
    env,
  )
  speechAfterFirst = openai.requestsTo(...SPEECH).length
  second = await runVitest(['run', '--config', FIXTURE_CONFIG], env)
  speechAfterSecond = openai.requestsTo(...SPEECH).length
  const cachedRuns = await runDirectoriesIn(join(dir, 'results'))
  // One architecture is enough to show the refresh, and keeps this third run short.
  refreshed = await runVitest(['run', '--config', FIXTURE_CONFIG], {
    ...env,
    LIVE_EVALS_REFRESH_AUDIO: 'true',
    OPENAI_ASSISTANT_MODE: 'responses',
  })
  for (const run of await runDirectoriesIn(join(dir, 'results'))) {
    const text = await readFile(join(dir, 'results', run, 'results.json'), 'utf8')
    const target = cachedRuns.includes(run) ? documents : refreshDocuments
    target.set(run, ResultsDocumentSchema.parse(JSON.parse(text)))
  }
}, 3 * SPAWN_TIMEOUT_MS)

afterAll(async () => {
  await Promise.all([live?.close(), openai?.close()])
  // The scratch folder holds several megabytes of audio per run.
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

describe('a live run against loopback stand-ins of the OpenAI services', () => {
  test('each run evaluates both architectures as live runs, every scenario ending in a response timeout', () => {
    expect(first.output).toContain('0 passed, 4 failed')
    expect(second.output).toContain('0 passed, 4 failed')
    const names = [...documents.keys()].sort()
    expect(names).toHaveLength(4)
    expect(names.filter((name) => /^crawl_live_responses_\d{8}_\d{6}_\d{3}Z$/.test(name))).toHaveLength(2)
    expect(names.filter((name) => /^crawl_live_client_\d{8}_\d{6}_\d{3}Z$/.test(name))).toHaveLength(2)
    for (const document of documents.values()) {
      expect(document.run.execution_mode).toBe('live')
      expect(document.results.map((row) => row.scenario_id)).toEqual(['fixture_wrong_tool', 'fixture_hours'])
      for (const row of document.results) {
        // An assistant that never answers is a graded target failure, not an infrastructure error: no error
        // stage (the status mapping would read one as infrastructure), the reason in the completion record.
        expect(row.status).toBe('failed')
        expect(row.error).toBeNull()
        expect(row.observability?.completion).toMatchObject({ termination_reason: 'response_timeout' })
        expect(row.observability?.provenance).toMatchObject({ execution_mode: 'live', clock: 'real_time' })
      }
    }
    // A live run never becomes offline: nothing in either run's output speaks of the offline fixture mode.
    expect(`${first.output}\n${second.output}\n${refreshed.output}`).not.toMatch(
      /offline_fixture|crawl_offline_/,
    )
  })

  test('the caller audio is synthesized once per scenario, and a second run reads it from the cache', async () => {
    const speech = openai.requestsTo(...SPEECH).slice(0, speechAfterSecond)
    // Two scenarios with different texts; both architectures share each synthesis.
    expect(speechAfterFirst).toBe(2)
    expect(speechAfterSecond).toBe(2)
    expect(spokenTexts(speech)).toEqual(await datasetTexts())
    for (const request of speech) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`)
      expect(request.body).toMatchObject({ model: 'gpt-4o-mini-tts', voice: 'marin', response_format: 'pcm' })
    }
    expect((await readdir(cacheDir)).filter((name) => name.endsWith('.pcm'))).toHaveLength(2)
    // The server heard nothing, so nothing was delegated and the client backend had nothing to ask.
    expect(openai.requestsTo('POST', '/v1/responses')).toHaveLength(0)
  })

  test('LIVE_EVALS_REFRESH_AUDIO=true synthesizes every request again and says so in run.configuration', async () => {
    expect(refreshed.output).toContain('0 passed, 2 failed')
    // Both scenarios' audio was in the cache, and each was requested once more.
    expect(spokenTexts(openai.requestsTo(...SPEECH).slice(speechAfterSecond))).toEqual(await datasetTexts())
    // The fresh audio replaced the old entries under the same content keys.
    expect((await readdir(cacheDir)).filter((name) => name.endsWith('.pcm'))).toHaveLength(2)
    const names = [...refreshDocuments.keys()]
    expect(names).toHaveLength(1)
    expect(names[0]).toMatch(/^crawl_live_responses_\d{8}_\d{6}_\d{3}Z$/)
    for (const document of refreshDocuments.values()) {
      expect(document.run.configuration).toMatchObject({ assistant_mode: 'responses', refresh_audio: true })
    }
  })

  test('run.configuration holds the CRAWL keys of the live settings', () => {
    for (const [name, document] of documents) {
      const architecture = name.includes('_client_') ? 'client' : 'responses'
      expect(document.run.configuration).toEqual({
        audio_source: 'synthetic',
        model: 'gpt-live-1',
        backend_model: 'gpt-5.6-terra',
        assistant_mode: architecture,
        assistant_endpoint: null,
        voice: 'marin',
        tts_model: 'gpt-4o-mini-tts',
        audio_cache_dir: relative(ROOT, cacheDir), // the project's root: results.json holds no absolute path
        refresh_audio: false,
        concurrency: 4,
        sample_rate_hz: 24_000,
        chunk_ms: 20,
        real_time: true,
        // The fixture's spec names no assistant: the bundled example is the one evaluated.
        live_evals: { version: '1.0', assistants: ['juniper-table'] },
      })
    }
  })

  test('the sessions reached the configured endpoint, and no key appears in any artifact, report or output', async () => {
    const files = await filesUnder(join(dir, 'results'))
    const reports = await filesUnder(join(dir, 'reports'))
    expect(reports.map((file) => file.slice(dir.length))).toEqual([
      '/reports/blob.json',
      '/reports/report.json',
    ])
    const blob = await readFile(join(dir, 'reports', 'blob.json'), 'utf8')
    // The stamp is there (so merges work) but the settings and the scenarios (evaluator-only answers) are not.
    expect(blob).toContain('liveEvalsRunStamp')
    expect(blob).not.toContain('openai_api_key')
    expect(blob).not.toContain('redact_fields')
    for (const answer of await expectedAnswers()) expect(blob).not.toContain(answer)
    const events = files.filter((file) => file.includes('/events/') && file.endsWith('.jsonl'))
    // Two scenarios in two architectures in each cache-reading run, plus the refresh run's two.
    expect(events).toHaveLength(10)
    for (const file of events) expect(await readFile(file, 'utf8')).toContain('"session.started"')
    for (const file of [...files, ...reports]) {
      const text = await readFile(file, 'latin1')
      expect(text, file).not.toContain(API_KEY)
      expect(text, file).not.toContain(RESPONSES_KEY)
      expect(text, file).not.toContain('LIVEWIRING')
    }
    // Vitest's copies of the attached audio stay with the run's output (scanned above), not in the repository.
    expect(
      files.filter((file) => file.includes('/.attachments/') && file.endsWith('.wav')).length,
    ).toBeGreaterThan(0)
    expect(first.output).not.toContain('LIVEWIRING')
    expect(second.output).not.toContain('LIVEWIRING')
    expect(refreshed.output).not.toContain('LIVEWIRING')
  })
})
