import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { SingleTurnExecution } from '../phases/engine/execution.ts'
import { bundledCrawlScenario } from '../phases/single-turn/test-support.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import type { Scenario } from '../scenarios/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { responsesRoute } from '../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import { executeLive, type LiveStandIns, liveCrawlSettings, SENTINEL_KEY } from './cassette.test-helpers.ts'

const SCENARIO = 'crawl_001_booking_complete_request'
const ARCHITECTURES = ['responses', 'client'] as const
let standIns: LiveStandIns
let responses: ResponsesServer
let cassettes = ''
let scenario: Scenario
const recorded = new Map<string, SingleTurnExecution>()

beforeAll(async () => {
  const live = await startOfflineLiveServer()
  responses = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({
        respond: () => ({ output: [{ type: 'message', text: 'Booked for Friday.' }] }),
      }),
    },
  })
  standIns = { live, responsesBaseURL: responses.baseURL }
  cassettes = await mkdtemp(join(tmpdir(), 'live-evals-replay-'))
  scenario = await bundledCrawlScenario(SCENARIO)
  const settings = await liveCrawlSettings(standIns, cassettes, {
    OPENAI_API_KEY: SENTINEL_KEY,
    LIVE_EVALS_MODE: 'live',
    LIVE_EVALS_RECORD: '1',
  })
  for (const architecture of ARCHITECTURES) {
    recorded.set(
      architecture,
      await executeLive(scenario, settings, architecture, standIns, { register: true }),
    )
  }
}, 120_000)

afterAll(async () => {
  await Promise.all([standIns?.live.close(), responses?.close()])
  if (cassettes !== '') await rm(cassettes, { recursive: true, force: true })
})

/**
 * Checks decided by comparing two clock readings of the harness (a tool's completion time against the assistant's
 * speech): the live recording reads the wall clock, so against a stand-in that answers at once they can fall either
 * way from one live run to the next; replay reproduces arrival times exactly but not the harness's own readings.
 */
const CLOCK_READING_CHECKS = new Set(['grounded_assistant_response'])

/** A row without what legitimately differs between two executions: ids, times, artifacts and the cassette block. */
function comparable(row: ResultItem): unknown {
  const text = JSON.stringify(row, (key, value) => {
    if (/(_ms|_seconds|_at|latency|duration|session_id|artifacts|rationale)$/.test(key)) return undefined
    if (key === 'cassette' || key === 'provenance' || key === 'failed_checks') return undefined
    if (Array.isArray(value)) {
      return value.filter((item) => !(typeof item === 'object' && CLOCK_READING_CHECKS.has(item?.id)))
    }
    return value
  })
  return JSON.parse(text)
}

function replaySettings(env: Record<string, string> = {}) {
  return liveCrawlSettings(standIns, cassettes, { LIVE_EVALS_MODE: 'replay', ...env })
}

describe('replay of a recorded live execution, keyless and without the services', () => {
  test('every row equals the recorded one (ids and times aside) and says it was replayed from its cassette', async () => {
    const settings = await replaySettings()
    expect(settings.credentials.openai_api_key).not.toBe(SENTINEL_KEY)
    const before = responses.requests.length
    for (const architecture of ARCHITECTURES) {
      const execution = await executeLive(scenario, settings, architecture, standIns, { register: false })
      const block = execution.row.observability?.live_evals as { cassette?: Record<string, unknown> }
      expect(block.cassette, JSON.stringify(block.cassette)).toMatchObject({
        mode: 'replay',
        id: `${SCENARIO}__${architecture}`,
        outcome: 'replayed',
        divergence_count: 0,
      })
      expect((execution.row.observability?.provenance as { execution_mode?: string }).execution_mode).toBe(
        'replay',
      )
      const original = recorded.get(architecture) as SingleTurnExecution
      expect(execution.row.status).toBe(original.row.status)
      expect(comparable(execution.row)).toEqual(comparable(original.row))
    }
    // Nothing reached the stand-ins: the replay server answered everything.
    expect(responses.requests.length).toBe(before)
  }, 120_000)
})
