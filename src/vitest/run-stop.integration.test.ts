// A live run whose key stops working after the preflight: the first scenario's text-to-speech request is refused
// with 401, and the scenario after it is not attempted at all; it fails at once as an infrastructure error that
// names the cause. The Vitest tests and the results.json rows say the same.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { openAiError } from '../testing/responses-server/routes.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from './child-vitest.test-helpers.ts'
import { RUN_STOP_FILE } from './run-stop.ts'

let live: OfflineLiveServer
let openai: ResponsesServer
let dir = ''
let run: ChildRun = { code: null, output: '' }
let document: ResultsDocument | null = null
let marker = ''

beforeAll(async () => {
  // GPT-Live answers (the preflight's session starts); the model lookup is a 404 (the preflight goes on); every
  // speech request is refused the way a revoked key is.
  live = await startOfflineLiveServer({ acceptAnyToken: true })
  openai = await startResponsesServer({
    routes: {
      'POST /v1/audio/speech': () =>
        openAiError(401, 'Incorrect API key provided.', { code: 'invalid_api_key' }),
    },
  })
  const space = await scratch()
  dir = space.dir
  run = await runVitest(['run', '--config', FIXTURE_CONFIG], {
    ...space.env,
    LIVE_EVALS_MODE: 'live',
    OPENAI_ASSISTANT_MODE: 'responses',
    OPENAI_API_KEY: 'sk-test-RUNSTOP-key',
    OPENAI_LIVE_ENDPOINT: live.baseURL,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    OPENAI_BASE_URL: openai.baseURL,
    LIVE_EVALS_JUDGE: 'false',
  })
  const results = join(dir, 'results')
  const [name] = await runDirectoriesIn(results)
  if (name !== undefined) {
    document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(results, name, 'results.json'), 'utf8')),
    )
    marker = await readFile(join(results, name, RUN_STOP_FILE), 'utf8').catch(() => '')
  }
}, SPAWN_TIMEOUT_MS)

afterAll(async () => {
  await Promise.all([live?.close(), openai?.close()])
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

test('a refused key mid-run stops the remaining scenarios as infrastructure errors at once', () => {
  expect(run.code).toBe(1)
  // The first scenario asked for its speech and was refused; the second never asked.
  expect(openai.requestsTo('POST', '/v1/audio/speech')).toHaveLength(1)
  expect(marker).toBe('the OpenAI API answered HTTP 401 invalid_api_key\n')
  const rows = document?.results ?? []
  expect(rows.map((row) => [row.scenario_id, row.status])).toEqual([
    ['fixture_wrong_tool', 'infrastructure_error'],
    ['fixture_hours', 'infrastructure_error'],
  ])
  expect(rows[0]?.error?.stage).toBe('audio_synthesis')
  expect(rows[1]?.error).toEqual({
    stage: 'connection',
    message:
      'Scenario fixture_hours was not run: an earlier scenario of this live run was refused (the OpenAI API ' +
      'answered HTTP 401 invalid_api_key), so the remaining scenarios stop here. Check OPENAI_API_KEY and the ' +
      'account’s quota, then run again',
  })
  // One verdict: both tests failed, and the console says why the second did.
  expect(run.output).toContain('0 passed, 2 failed')
  expect(run.output).toContain(
    'Scenario fixture_hours was not run: an earlier scenario of this live run was refused',
  )
})

test('each failing scenario shows one error block: its message, no causes, no Headers, no frames', () => {
  const blocks = run.output.split(/^ FAIL /m).slice(1)
  expect(blocks).toHaveLength(2)
  expect(blocks[0]).toContain(
    `ScenarioFailure: Scenario fixture_wrong_tool: Text-to-speech request to ${openai.baseURL}/audio/speech failed ` +
      '(model "gpt-4o-mini-tts", voice "marin"): 401 Incorrect API key provided. Check OPENAI_API_KEY',
  )
  for (const block of blocks) {
    expect(block).not.toMatch(/Caused by|Serialized Error|headers|Function<|\.\.\s/)
    expect(block).not.toMatch(/❯ .*(src|dist)\//)
  }
})
