// Every fault kind, end to end offline in both architectures, through the bundled fault scenarios
// (scenarios/run/faults.json): each is injected (the row's `faults` record names it, on its plane and target),
// recorded in the details JSON (the same record, and on the tool execution for the tool plane), and scored (the
// caller-experience check it bears on, and the row's verdict). The same seed gives the same faults twice.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BACKEND_FAILURE_ANSWER } from '../assistants/client/delegation/client-delegation-controller.ts'
import type { RunSettings } from '../config/index.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import type { MultiTurnExecution, ScenarioEnv } from '../phases/engine/execution.ts'
import { runScenario } from '../phases/engine/run-scenario.ts'
import { scenarioApplicationFor } from '../phases/engine/scenario-application.ts'
import { bundledRunScenario, offlineRunSettings } from '../phases/run/conversation.test-helpers.ts'
import { runCallerSource, runPhase } from '../phases/run/index.ts'
import { freshRunDirectory } from '../phases/single-turn/test-support.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import type { FaultsRecord } from './events.ts'
import { scenarioFaultProfile } from './scenario-profile.ts'

const DATASET = join(import.meta.dirname, '../../scenarios/run/faults.json')
const ARCHITECTURES = ['responses', 'client'] as const
type Architecture = (typeof ARCHITECTURES)[number]

let server: OfflineLiveServer
let settings: RunSettings
const folders: string[] = []
const played = new Map<string, { execution: MultiTurnExecution; details: Record<string, unknown> }>()

async function play(id: string, architecture: Architecture) {
  const scenario = await bundledRunScenario(id, 'faults.json')
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  const env: ScenarioEnv<RunSettings> = {
    settings,
    runDirectory,
    offlineServer: server,
    architecture: architectureFor(architecture, settings),
    callerSource: runCallerSource,
    faults: scenarioFaultProfile(scenario, settings.execution.faults),
  }
  const execution = (await runScenario(runPhase, scenario, env, {
    application: scenarioApplicationFor(env, scenario),
  })) as MultiTurnExecution
  const detailsPath = execution.artifacts.details
  if (detailsPath === null) throw new Error(`${id}: no details (${JSON.stringify(execution.row.error)})`)
  const details = JSON.parse(await readFile(detailsPath, 'utf8')) as Record<string, unknown>
  return { execution, details }
}

const IDS = [
  'run_fault_001_booking_backend_down',
  'run_fault_002_booking_timeout',
  'run_fault_003_booking_empty_answer',
  'run_fault_004_availability_wrong_data',
  'run_fault_005_availability_double_check',
  'run_fault_006_availability_slow',
  'run_fault_007_booking_delegation_stall',
  'run_fault_008_booking_delegation_error',
  'run_fault_009_booking_stream_cut',
  'run_fault_010_booking_jitter',
  'run_fault_011_booking_uplink_loss',
]

beforeAll(async () => {
  server = await startOfflineLiveServer()
  settings = await offlineRunSettings(DATASET)
  for (const architecture of ARCHITECTURES) {
    for (const id of IDS) played.set(`${architecture}/${id}`, await play(id, architecture))
  }
}, 240_000)
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

function outcome(architecture: Architecture, id: string) {
  const run = played.get(`${architecture}/${id}`)
  if (run === undefined) throw new Error(`${architecture}/${id} was not played`)
  const row: ResultItem = run.execution.row
  const faults = row.observability?.live_evals?.faults as FaultsRecord
  const check = (checkId: string) =>
    row.observability?.live_evals?.checks?.find((candidate) => candidate.id === checkId)
  const reference = (checkId: string) => row.assessment?.checks.find((candidate) => candidate.id === checkId)
  return { row, faults, check, reference, details: run.details, execution: run.execution }
}

describe.each(ARCHITECTURES)('every fault kind, injected, recorded and scored (%s)', (architecture) => {
  test('the details carry the same fault record as the row, and no row is an infrastructure error', () => {
    for (const id of IDS) {
      const { row, faults, details } = outcome(architecture, id)
      expect(row.status, `${id}: ${JSON.stringify(row.error)}`).not.toBe('infrastructure_error')
      expect(faults.injected.length, id).toBeGreaterThan(0)
      expect(details.faults, id).toEqual(faults)
      expect((details.observation as { faults?: unknown }).faults, id).toEqual(faults)
    }
  })

  test('error: the booking fails, the assistant says so, no false confirmation, the state stays', () => {
    const { row, faults, check, execution } = outcome(architecture, 'run_fault_001_booking_backend_down')
    expect(faults).toMatchObject({ profile: 'backend-down', source: 'scenario', classes: ['error'] })
    expect(faults.injected[0]).toMatchObject({ kind: 'error', plane: 'tool', target: 'create_reservation' })
    expect(execution.observation?.tool_executions[0]).toMatchObject({
      status: 'failed',
      fault: { kind: 'error' },
    })
    expect(check('no_false_confirmation')).toMatchObject({ status: 'passed', required: true })
    expect(row.status).toBe('passed')
  })

  test('timeout: 5 s of waiting, then taken as made: "you\'re all set" fails no_false_confirmation and the row', () => {
    const { row, faults, check } = outcome(architecture, 'run_fault_002_booking_timeout')
    // The timeout costs the runtime's wait (the default 5 s, on the media clock), which the caller sits through.
    expect(faults.injected[0]).toMatchObject({
      kind: 'timeout',
      target: 'create_reservation',
      delay_ms: 5000,
    })
    expect(check('progress_statement_when_slow')).toMatchObject({ status: 'passed', required: false })
    expect(check('dead_air_while_pending')).toMatchObject({ status: 'passed', required: false })
    expect(check('no_false_confirmation')).toMatchObject({ status: 'failed', required: true })
    expect(check('no_false_confirmation')?.reason).toMatch(/all set/)
    expect(row.status).toBe('failed')
    expect(row.metrics.task.task_completed).toBe(false)
  })

  test('empty: an empty answer is not taken as a success', () => {
    const { row, faults, check, execution } = outcome(architecture, 'run_fault_003_booking_empty_answer')
    expect(faults.injected[0]).toMatchObject({ kind: 'empty', target: 'create_reservation' })
    expect(execution.observation?.tool_executions[0]).toMatchObject({ output: {}, fault: { kind: 'empty' } })
    expect(check('no_false_confirmation')?.status).toBe('passed')
    expect(row.status).toBe('passed')
  })

  test('wrong_data: relied on without a second check fails the verification the scenario expects', () => {
    const { row, faults, check } = outcome(architecture, 'run_fault_004_availability_wrong_data')
    expect(faults.injected[0]).toMatchObject({ kind: 'wrong_data', target: 'check_availability' })
    expect(faults.injected[0]?.changed?.length).toBe(1)
    expect(check('verification_after_implausible_result')).toMatchObject({ status: 'failed', required: true })
    expect(row.status).toBe('failed')
  })

  test('wrong_data once, then checked again: the verification passes', () => {
    const { row, faults, check, execution } = outcome(architecture, 'run_fault_005_availability_double_check')
    expect(faults.injected).toHaveLength(1)
    expect(execution.observation?.tool_executions.map((execution) => execution.name)).toEqual([
      'check_availability',
      'check_availability',
    ])
    expect(check('verification_after_implausible_result')).toMatchObject({ status: 'passed', required: true })
    expect(row.status).toBe('passed')
  })

  test('slow: 2 s late, an availability check left unexplained: no progress statement, dead air (both reported only); the row still passes', () => {
    const { row, faults, check } = outcome(architecture, 'run_fault_006_availability_slow')
    expect(faults.injected[0]).toMatchObject({ kind: 'slow', target: 'check_availability', delay_ms: 2000 })
    expect(check('progress_statement_when_slow')).toMatchObject({ status: 'failed', required: false })
    expect(check('dead_air_while_pending')).toMatchObject({ status: 'failed', required: false })
    expect(row.status).toBe('passed')
  })

  test('backend_stall: 5 s held back, progress statements fill it: no dead air', () => {
    const { row, faults, check } = outcome(architecture, 'run_fault_007_booking_delegation_stall')
    expect(faults.injected[0]).toMatchObject({
      kind: 'backend_stall',
      plane: 'backend',
      target: 'delegation',
      index: 0,
      delay_ms: 5000,
      delegation_id: expect.any(String),
    })
    expect(check('progress_statement_when_slow')).toMatchObject({ status: 'passed', required: false })
    // The assistant keeps the caller informed: "One moment.", then a progress line within the limit, and again.
    expect(check('dead_air_while_pending')).toMatchObject({ status: 'passed', required: false })
    expect(row.status).toBe('passed')
  })

  test('backend_error: both architectures tell the caller it failed, with no dead air and no false confirmation', () => {
    const { row, faults, check, details } = outcome(architecture, 'run_fault_008_booking_delegation_error')
    expect(faults.injected[0]).toMatchObject({
      kind: 'backend_error',
      plane: 'backend',
      target: 'delegation',
    })
    // Client: the delegation controller gives GPT-Live its failure answer (before, the voice model said twice that
    // it was still working on a request that had failed, then fell silent).
    const said = (details.transcript as { role: string; text: string }[])
      .filter((line) => line.role === 'assistant')
      .map((line) => line.text)
    expect(said).toContainEqual(
      architecture === 'responses' ? expect.stringMatching(/couldn't reach/) : BACKEND_FAILURE_ANSWER,
    )
    expect(check('progress_statement_when_slow')?.status).toBe('passed')
    // Client: the backend fails at once, so no work stays pending and there is no wait to fill.
    expect(check('dead_air_while_pending')?.status).toBe(
      architecture === 'responses' ? 'passed' : 'not_applicable',
    )
    expect(check('no_false_confirmation')?.status).not.toBe('failed')
    expect(row.status).toBe('passed')
  })

  test('stream_cut: the caller hears the start of the utterance, then silence; the call still completes', () => {
    const { row, faults, execution } = outcome(architecture, 'run_fault_009_booking_stream_cut')
    const cut = faults.injected[0]
    expect(cut).toMatchObject({ kind: 'stream_cut', plane: 'transport', target: 'downlink', index: 2 })
    expect(cut?.duration_ms).toBeGreaterThan(0)
    const heard = execution.observation?.experience?.assistant_heard_ms ?? []
    const atMs = cut?.at_ms as number
    // Nothing of the assistant reaches the caller during the cut.
    expect(
      heard.some((span) => span.start_ms < atMs + (cut?.duration_ms ?? 0) && span.end_ms > atMs + 100),
    ).toBe(false)
    expect(row.status).toBe('passed')
  })

  test('jitter: the caller hears a 700 ms stall inside an assistant utterance; the call still completes', () => {
    const { row, faults, execution } = outcome(architecture, 'run_fault_010_booking_jitter')
    expect(faults.classes).toEqual(['jitter'])
    const stall = faults.injected[0]
    expect(stall).toMatchObject({ kind: 'jitter', target: 'downlink', delay_ms: 700 })
    const heard = execution.observation?.experience?.assistant_heard_ms ?? []
    const before = heard.find(
      (span) => span.end_ms <= (stall?.at_ms as number) + 20 && span.end_ms >= (stall?.at_ms as number) - 20,
    )
    const after = heard.find((span) => span.start_ms > (stall?.at_ms as number))
    expect(before, JSON.stringify(heard)).toBeDefined()
    expect((after?.start_ms ?? 0) - (before?.end_ms ?? 0)).toBeGreaterThanOrEqual(600)
    expect(row.status).toBe('passed')
  })

  test('uplink_loss: the lost words are not heard; the assistant asks for the name and books', () => {
    const { row, faults, execution, reference } = outcome(architecture, 'run_fault_011_booking_uplink_loss')
    expect(faults.injected[0]).toMatchObject({
      kind: 'uplink_loss',
      target: 'uplink',
      index: 0,
      duration_ms: 800,
      lost_text: 'under Rivera',
    })
    const transcript = execution.observation?.transcript ?? []
    expect(transcript[0]?.text).not.toMatch(/Rivera/)
    expect(transcript.find((line) => line.role === 'assistant')?.text).toMatch(/name/)
    expect(reference('application_state')?.status).toBe('passed')
    expect(row.status).toBe('passed')
  })
})

test('the same seed gives the same faults: a second play of a scenario records the same record', async () => {
  for (const id of ['run_fault_010_booking_jitter', 'run_fault_007_booking_delegation_stall']) {
    const again = await play(id, 'responses')
    expect(again.execution.row.observability?.live_evals?.faults).toEqual(outcome('responses', id).faults)
  }
}, 60_000)
