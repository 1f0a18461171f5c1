// CRAWL (and so WALK, which shares the single-turn driver) under fault profiles, offline in both architectures:
// the tool plane, the delegation backend and the caller's uplink are injected, recorded in the row and the
// details, and scored; stream cuts and jitter, which need a caller listening, refuse at input_setup.
import { readFile, rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { remoteClientDelegation } from '../assistants/architectures/remote/index.ts'
import type { CrawlSettings } from '../config/index.ts'
import type { SingleTurnExecution } from '../phases/engine/execution.ts'
import {
  bundledCrawlScenario,
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from '../phases/single-turn/test-support.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { scenarioFaultProfile } from './scenario-profile.ts'

let server: OfflineLiveServer
let settings: CrawlSettings
const folders: string[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
  settings = await offlineCrawlSettings()
})
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

async function crawl(
  id: string,
  architecture: 'responses' | 'client',
  profile: string,
): Promise<SingleTurnExecution> {
  const scenario = await bundledCrawlScenario(id)
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  const faulted = {
    ...settings,
    execution: { ...settings.execution, faults: profile as CrawlSettings['execution']['faults'] },
  }
  const env = offlineEnv(faulted, server, runDirectory, architecture, {
    faults: scenarioFaultProfile(scenario, profile),
  })
  return executeScenario(scenario, env)
}

async function detailsOf(execution: SingleTurnExecution): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(execution.artifacts.details as string, 'utf8')) as Record<string, unknown>
}

describe.each(['responses', 'client'] as const)('CRAWL under a fault profile (%s)', (architecture) => {
  test('tool plane: a booking that errors is injected, recorded, and not confirmed', async () => {
    const execution = await crawl('crawl_001_booking_complete_request', architecture, 'backend-down')
    const faults = execution.row.observability?.live_evals?.faults
    expect(faults).toMatchObject({ profile: 'backend-down', source: 'setting', classes: ['error'] })
    expect(faults?.injected[0]).toMatchObject({
      kind: 'error',
      target: 'create_reservation',
      call_id: expect.any(String),
    })
    expect(execution.observation?.tool_executions[0]?.fault).toMatchObject({ kind: 'error' })
    expect((await detailsOf(execution)).faults).toEqual(faults)
    const checks = execution.row.observability?.live_evals?.checks ?? []
    expect(checks.find((check) => check.id === 'no_false_confirmation')?.status).toBe('passed')
    // CRAWL holds the assistant to the tool contract: a failed booking is a failed task, as the caller sees it.
    expect(execution.row.status).toBe('failed')
  })

  test('a timeout taken as made fails no_false_confirmation in CRAWL too', async () => {
    const execution = await crawl('crawl_001_booking_complete_request', architecture, 'tool-timeout')
    const checks = execution.row.observability?.live_evals?.checks ?? []
    expect(checks.find((check) => check.id === 'no_false_confirmation')).toMatchObject({
      status: 'failed',
      required: true,
    })
  })

  test('backend plane: a stalled backend delays the answer on the call clock and is recorded', async () => {
    const clean = await crawl('crawl_009_availability_open_slot', architecture, 'none')
    const stalled = await crawl('crawl_009_availability_open_slot', architecture, 'delegation-stall')
    const faults = stalled.row.observability?.live_evals?.faults
    expect(faults?.injected).toEqual([
      expect.objectContaining({
        kind: 'backend_stall',
        plane: 'backend',
        delay_ms: 5_000,
        delegation_id: expect.any(String),
      }),
    ])
    const answerAt = (execution: SingleTurnExecution) =>
      execution.observation?.tool_executions[0]?.completed_at_ms ?? Number.NaN
    expect(answerAt(stalled) - answerAt(clean)).toBeGreaterThanOrEqual(4_800)
    expect(stalled.row.status).toBe('passed')
    const checks = stalled.row.observability?.live_evals?.checks ?? []
    expect(checks.find((check) => check.id === 'progress_statement_when_slow')?.status).toBe('passed')
    expect(checks.find((check) => check.id === 'dead_air_while_pending')?.status).toBe('failed')
  })

  test('transport: the uplink loses a burst of the request; the lost words are recorded', async () => {
    const execution = await crawl('crawl_001_booking_complete_request', architecture, 'uplink-loss')
    const loss = execution.row.observability?.live_evals?.faults?.injected[0]
    expect(loss).toMatchObject({
      kind: 'uplink_loss',
      target: 'uplink',
      duration_ms: 800,
      lost_text: expect.any(String),
    })
    const heard = execution.observation?.transcript.find((line) => line.role === 'user')?.text ?? ''
    for (const word of (loss?.lost_text ?? '').split(' ')) expect(heard.split(/\s+/)).not.toContain(word)
  })

  test('stream_cut and jitter refuse at input_setup: no caller listens in a single turn', async () => {
    for (const profile of ['transport-cut', 'transport-jitter']) {
      const execution = await crawl('crawl_020_hours', architecture, profile)
      expect(execution.row.status).toBe('infrastructure_error')
      expect(execution.row.error?.stage).toBe('input_setup')
      expect(execution.row.error?.message).toMatch(/has no caller listening to the assistant; use it in RUN/)
    }
  })
})

test('a remote client assistant refuses tool and backend faults at input_setup, before connecting', async () => {
  const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  const faulted = { ...settings, execution: { ...settings.execution, faults: 'backend-down' as const } }
  const env = offlineEnv(faulted, server, runDirectory, 'client', {
    architecture: remoteClientDelegation({
      // Never reached: the refusal comes first.
      endpoint: 'ws://127.0.0.1:9/never',
      token: undefined,
      allowInsecureLoopback: true,
      openAiKeys: {},
      sendScenarioState: false,
    }),
    faults: scenarioFaultProfile(scenario, 'backend-down'),
  })
  const execution = await executeScenario(scenario, env)
  expect(execution.row.error).toMatchObject({ stage: 'input_setup' })
  expect(execution.row.error?.message).toMatch(
    /rule 1 \(error\): its tools and backend run in the separately deployed client assistant \(assistant.endpoint\)/,
  )
})
