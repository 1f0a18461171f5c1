// The dress rehearsal of RUN: `LIVE_EVALS_MODE=live vitest run specs/run` in a child Vitest against the rehearsal
// server started here, through a front that notes the key of every request. Everything is the live code path:
// the preflight, two GPT-Live sessions per call (the assistant under test and the caller, both with
// OPENAI_API_KEY), the caller's reasoning rounds on its own session, the completion observer and the judge on
// the Responses API (OPENAI_API_KEY), the client backend on it with its own key (OPENAI_RESPONSES_API_KEY), the
// real-time media clock, in both architectures. Two restaurant scenarios must pass for the right reasons; a third,
// run_007's caller with an expected state no assistant can reach (a reservation that does not exist cancelled),
// must fail: the observer keeps the call open after the goodbye, the call hits its limit, the state check fails.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { JUDGE_DECISION_SCHEMA_NAME } from '../../grading/judge/decision-schema.ts'
import {
  type ResultItem,
  type ResultsDocument,
  ResultsDocumentSchema,
} from '../../reporting/result-schema.ts'
import {
  type ChildRun,
  ROOT,
  runDirectoriesIn,
  runVitest,
  scratch,
} from '../../vitest/child-vitest.test-helpers.ts'
import { type KeyRecordingProxy, startKeyRecordingProxy } from './key-recording-proxy.test-helpers.ts'
import { OBSERVER_FORMAT_NAME } from './run-observer.ts'
import { type RehearsalServer, startRehearsalServer } from './server.ts'

const API_KEY = 'sk-test-REHEARSALRUN-api-key-1b7e'
const RESPONSES_KEY = 'sk-test-REHEARSALRUN-responses-key-93c4'
const PASSING = ['run_002_booking_missing_name', 'run_007_cancel_authorized']
const UNREACHABLE = 'run_007_unreachable_state'
/** Longer than the passing calls (about 30 s of audio each), so only the call that never drains reaches it. */
const MAX_DURATION_SECONDS = 40
/** The child's own start (Vitest, the plan, the preflight) on a busy machine, beyond the calls themselves. */
const CHILD_TIMEOUT_MS = 300_000

let server: RehearsalServer
let proxy: KeyRecordingProxy
let dir = ''
let run: ChildRun = { code: null, output: '' }
const documents = new Map<'responses' | 'client', ResultsDocument>()

async function writeDataset(file: string): Promise<void> {
  const bundled = JSON.parse(await readFile(join(ROOT, 'scenarios/run/restaurant.json'), 'utf8')) as {
    scenarios: Array<{ id: string; expected: { state: Record<string, unknown> } }>
  }
  const scenarios = bundled.scenarios.filter((scenario) => PASSING.includes(scenario.id))
  const base = scenarios.find((scenario) => scenario.id === 'run_007_cancel_authorized')
  if (base === undefined) throw new Error('run_007_cancel_authorized is no longer bundled')
  const unreachable = structuredClone(base)
  unreachable.id = UNREACHABLE
  // The caller and the assistant see nothing of this: only the expected state differs from run_007's.
  unreachable.expected.state = {
    reservation_id: 'R-999',
    cancelled: true,
    reservations: [{ reservation_id: 'R-999', cancelled: true }],
  }
  await writeFile(file, JSON.stringify({ ...bundled, scenarios: [...scenarios, unreachable] }))
}

beforeAll(async () => {
  const space = await scratch()
  dir = space.dir
  const dataset = join(dir, 'run-rehearsal.json')
  await writeDataset(dataset)
  server = await startRehearsalServer({ datasets: [dataset] })
  proxy = await startKeyRecordingProxy(server.port)
  const config = join(dir, 'run-rehearsal.toml')
  await writeFile(
    config,
    [
      '[dataset]',
      `path = ${JSON.stringify(dataset)}`,
      '[execution]',
      // Every call of both architectures at once: they run in real time, so the suite lasts about one call.
      'concurrency = 6',
      '[simulation]',
      `max_duration_seconds = ${MAX_DURATION_SECONDS}`,
      '',
    ].join('\n'),
  )
  run = await runVitest(['run', '--project', 'run', 'specs/run/restaurant.spec.ts'], {
    ...space.env,
    LIVE_EVALS_CONFIG: config,
    LIVE_EVALS_MODE: 'live',
    OPENAI_API_KEY: API_KEY,
    OPENAI_RESPONSES_API_KEY: RESPONSES_KEY,
    OPENAI_BASE_URL: proxy.baseURL,
    OPENAI_LIVE_ENDPOINT: proxy.baseURL,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: 'true',
  })
  const results = join(dir, 'results')
  for (const name of await runDirectoriesIn(results)) {
    const document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(results, name, 'results.json'), 'utf8')),
    )
    documents.set(name.includes('_client_') ? 'client' : 'responses', document)
  }
}, CHILD_TIMEOUT_MS + 30_000)

afterAll(async () => {
  await proxy?.close()
  await server?.close()
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

const rowOf = (architecture: 'responses' | 'client', id: string): ResultItem => {
  const row = documents.get(architecture)?.results.find((candidate) => candidate.scenario_id === id)
  if (row === undefined)
    throw new Error(`no ${architecture} row for ${id}; the child printed:\n${run.output}`)
  return row
}

async function detailsOf(row: ResultItem, architecture: 'responses' | 'client') {
  const runName = documents.get(architecture)?.run.id ?? ''
  const file = join(dir, 'results', runName, row.artifacts.details ?? '')
  return JSON.parse(await readFile(file, 'utf8')) as {
    observer: { assessments: { result: string; decision: { outcome: string; reason: string } | null }[] }
    caller: { backend_usage: unknown[] }
  }
}

describe.each(['responses', 'client'] as const)(
  'a live RUN against the rehearsal server (%s)',
  (architecture) => {
    test('is a live run of both sessions in real time', () => {
      expect(run.output, run.output).toContain('4 passed, 2 failed')
      const document = documents.get(architecture)
      expect(document?.run.execution_mode).toBe('live')
      expect(document?.run.configuration).toMatchObject({
        assistant_mode: architecture,
        simulator_model: 'gpt-live-1',
        simulator_backend_model: 'gpt-5.6-luna',
        semantic_drain: true,
      })
      expect(document?.results.map((row) => row.scenario_id).sort()).toEqual([...PASSING, UNREACHABLE].sort())
      expect(run.output).not.toMatch(/offline_fixture|run_offline_/)
    })

    test.each(PASSING)('%s passes: the task done with its tool call, ended by the observer', async (id) => {
      const row = rowOf(architecture, id)
      expect(row.status).toBe('passed')
      expect(row.error).toBeNull()
      expect(row.metrics.task.task_completed).toBe(true)
      expect(row.metrics.task.tool_calls).toEqual({ actual: 1, expected: 1 })
      expect(row.observability?.completion).toMatchObject({
        termination_reason: 'response_completed',
        policy: 'semantic_conversation_observer',
      })
      expect(row.observability?.interaction).toMatchObject({ caller_mode: 'gpt-live' })
      // The caller decided its lines in Responses rounds of its own session, and they all finished.
      expect(row.validity).toMatchObject({ scope: 'caller_responses_delegation', status: 'valid' })
      const callerRounds = (row.validity as { delegation_ids: string[] }).delegation_ids.length
      expect(callerRounds).toBeGreaterThanOrEqual(3)
      const details = await detailsOf(row, architecture)
      expect(details.caller.backend_usage).toHaveLength(callerRounds)
      // The observer said "not yet" before the goodbye, and drained once the state held.
      const results = details.observer.assessments.map((assessment) => assessment.result)
      expect(results).toContain('unresolved')
      expect(results.at(-1)).toBe('signal')
    })

    test('the scenario whose expected state cannot be reached fails, held open by the observer', async () => {
      const row = rowOf(architecture, UNREACHABLE)
      expect(row.status).toBe('failed')
      expect(row.error).toBeNull()
      expect(row.metrics.task.task_completed).toBe(false)
      // The assistant did what the caller asked; the grade is not fooled by it.
      expect(row.metrics.task.tool_calls).toEqual({ actual: 1, expected: 1 })
      expect(row.observability?.completion).toMatchObject({ termination_reason: 'duration_limit' })
      expect(row.observability?.completion).toMatchObject({
        failed_checks: expect.arrayContaining(['conversation_completed', 'application_state']),
      })
      const details = await detailsOf(row, architecture)
      const decisions = details.observer.assessments.flatMap((assessment) =>
        assessment.decision === null ? [] : [assessment.decision],
      )
      expect(decisions.length).toBeGreaterThan(0)
      expect(decisions.every((decision) => decision.outcome === 'unresolved')).toBe(true)
      expect(decisions.at(-1)?.reason).toMatch(/does not hold the expected state/)
    })
  },
)

test('the rehearsal caller journals each call: the one held open to its limit ends quiet, saying why', () => {
  // The unreachable scenario's caller brief is run_007_cancel_authorized's: one caller, four calls (two scenarios
  // in two architectures), each said its four lines and then heard the assistant with nothing left to say.
  const journals = server.callerJournals(UNREACHABLE)
  expect(journals).toEqual(server.callerJournals('run_007_cancel_authorized'))
  expect(journals).toHaveLength(4)
  for (const journal of journals) {
    expect(
      journal.filter((entry) => / says line \d: /.test(entry)),
      journal.join('\n'),
    ).toHaveLength(4)
    expect(journal.at(-2), journal.join('\n')).toMatch(/ heard "/)
    expect(journal.at(-1), journal.join('\n')).toMatch(
      / stays quiet: a hold, a backchannel or nothing left to say \(4 said\)$/,
    )
  }
  expect(server.callerJournals('no_such_scenario')).toEqual([])
})

describe('credentials', () => {
  test('both GPT-Live sessions, the observer and the judge use OPENAI_API_KEY; the client backend its own key', () => {
    const sessions = proxy.seen.filter((request) => request.kind === 'upgrade')
    // Two sessions per call (six calls) and the preflight's.
    expect(sessions.length).toBeGreaterThanOrEqual(13)
    expect(new Set(sessions.map((request) => request.token))).toEqual(new Set([API_KEY]))
    const responses = proxy.seen.filter(
      (request) => request.kind === 'http' && request.path === '/v1/responses',
    )
    const formatOf = (request: { body: unknown }) =>
      (request.body as { text?: { format?: { name?: string } } } | null)?.text?.format?.name ?? null
    const observer = responses.filter((request) => formatOf(request) === OBSERVER_FORMAT_NAME)
    const judge = responses.filter((request) => formatOf(request) === JUDGE_DECISION_SCHEMA_NAME)
    const backend = responses.filter((request) => formatOf(request) === null)
    expect(observer.length).toBeGreaterThan(0)
    expect(judge.length).toBeGreaterThan(0)
    // Only the client architecture's backend asks the Responses API itself (Responses delegation runs in the session).
    expect(backend.length).toBeGreaterThan(0)
    expect(new Set([...observer, ...judge].map((request) => request.token))).toEqual(new Set([API_KEY]))
    expect(new Set(backend.map((request) => request.token))).toEqual(new Set([RESPONSES_KEY]))
    expect(responses.length).toBe(observer.length + judge.length + backend.length)
  })

  test('no key appears in the run’s output or artifacts', async () => {
    expect(run.output).not.toContain('REHEARSALRUN')
    const entries = await readdir(join(dir, 'results'), { recursive: true, withFileTypes: true })
    for (const entry of entries.filter((candidate) => candidate.isFile())) {
      const text = await readFile(join(entry.parentPath, entry.name), 'latin1')
      expect(text, entry.name).not.toContain('REHEARSALRUN')
    }
  })
})
