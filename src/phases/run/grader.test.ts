// RUN's record stage on one offline call played once per architecture: what the row and the details JSON say
// when the evaluation failed after the call (behaviour #53), and the §4.1 fields a RUN row and its details carry.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSettings } from '../../config/index.ts'
import { NO_ARTIFACTS } from '../../reporting/result-item.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { assistantVisibleInput } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { scenarioMatchers } from '../../vitest/matchers.ts'
import { scenarioRunOf } from '../../vitest/scenario-run.ts'
import { verdictOf } from '../../vitest/verdict.ts'
import { architectureFor } from '../engine/architecture-choice.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import type { RecordOptions } from '../engine/record.ts'
import { freshRunDirectory } from '../single-turn/test-support.ts'
import { bundledRunScenario, offlineRunSettings } from './conversation.test-helpers.ts'
import { RunDetailsSchema } from './details.ts'
import { runDriver } from './driver.ts'
import { runCallerSource, runPhase } from './index.ts'
import type { RunObserved } from './observed.ts'

expect.extend(scenarioMatchers)

let server: OfflineLiveServer
const folders: string[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

async function envFor(architecture: 'responses' | 'client'): Promise<ScenarioEnv<RunSettings>> {
  const settings = await offlineRunSettings()
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  return {
    settings,
    runDirectory,
    offlineServer: server,
    architecture: architectureFor(architecture, settings),
    callerSource: runCallerSource,
  }
}

interface Played {
  scenario: Scenario
  observed: RunObserved
}

async function play(id: string, architecture: 'responses' | 'client'): Promise<Played> {
  const env = await envFor(architecture)
  const scenario = await bundledRunScenario(id)
  const application = env.architecture.createApplication(assistantVisibleInput(scenario))
  const open = await runDriver.open(scenario, env, await runCallerSource.prepare(scenario, {}), {
    application,
  })
  return { scenario, observed: await open.run() }
}

/** Records the played call in a fresh run directory (artifacts are written once per directory). */
async function record(
  played: Played,
  architecture: 'responses' | 'client',
  change: Partial<RunObserved> = {},
  options: RecordOptions = {},
) {
  const env = await envFor(architecture)
  const execution = await runPhase.grader.grade(
    played.scenario,
    env,
    await runCallerSource.prepare(played.scenario, {}),
    { ...played.observed, ...change },
    { ...NO_ARTIFACTS },
    options,
  )
  const details = RunDetailsSchema.parse(
    JSON.parse(await readFile(join(env.runDirectory, execution.row.artifacts.details as string), 'utf8')),
  )
  return { execution, details }
}

const PENDING_WORK = {
  stage: 'pending_work_timeout',
  message: 'Scenario run_001_booking_complete: delegated work was still pending 5 s after the call ended.',
}

describe('behaviour #53: a runtime failure after the call is what the row and the details report', () => {
  let played: Played
  beforeAll(async () => {
    played = await play('run_001_booking_complete', 'responses')
  }, 60_000)

  it('a malformed row after the failure keeps the primary stage and message, task_completed false', async () => {
    const { execution, details } = await record(
      played,
      'responses',
      { failure: PENDING_WORK },
      {
        transformRow: (row) => {
          ;(row.metrics as { task: Record<string, unknown> }).task.task_completed = 'true'
          return row
        },
      },
    )
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error).toEqual(PENDING_WORK)
    expect(execution.row.metrics.task.task_completed).toBe(false)
    expect(execution.failure?.stage).toBe('pending_work_timeout')
    expect(details.task_status).toBe('error')
    expect(details.termination_reason).toBe('pending_work_timeout')
    expect(details.result_validation).toContain('task_completed must be an explicitly observed boolean')
  })

  it("the details name the call's completion signal from the fixed set, and still read without it", async () => {
    const { details } = await record(played, 'responses')
    expect(details.completion_signal).toBe('caller_finish_tool')
    expect(RunDetailsSchema.safeParse({ ...details, completion_signal: 'caller_hung_up' }).success).toBe(
      false,
    )
    const { completion_signal: _signal, ...older } = details
    expect(RunDetailsSchema.safeParse(older).success).toBe(true)
  })

  it('an infrastructure row from a runtime failure has task_completed false even when the grade passed', async () => {
    const { execution, details } = await record(played, 'responses', { failure: PENDING_WORK })
    expect(execution.grade?.task_completed).toBe(true)
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error).toEqual(PENDING_WORK)
    expect(execution.row.metrics.task.task_completed).toBe(false)
    expect(execution.row.observability?.completion).toMatchObject({
      termination_reason: 'pending_work_timeout',
    })
    expect(details.task_status).toBe('error')
    expect(details.termination_reason).toBe('pending_work_timeout')
    expect(details.failure).toEqual(PENDING_WORK)
  })

  it('a call without failure: task_status is the graded verdict and the termination reason how it ended', async () => {
    const { execution, details } = await record(played, 'responses')
    expect(execution.row.status).toBe('passed')
    expect(details.task_status).toBe('passed')
    expect(details.termination_reason).toBe('response_completed')
    expect(details.result_validation).toBeNull()
    // OPENING, two answers and a closing, each request answered: the reference's count, as its golden path says.
    expect(execution.row.metrics.task.turns).toEqual({ actual: 7, expected: 7 })
    // Every item counts in the total (the goodbye too); the two the scripted caller said are completed.
    expect(execution.row.observability?.agenda).toEqual({
      total: 3,
      completed: ['accept_confirmation', 'ask_about_parking'],
      skipped: [],
      bypassed: [],
      pending_required: [],
    })
  })
})

describe('RUN rows as §4.1 writes them', () => {
  it('a live caller claims no agenda item completed: every required item stays pending', async () => {
    const played = await play('run_002_booking_missing_name', 'responses')
    const { execution } = await record(played, 'responses', { callerMode: 'gpt-live' })
    expect(execution.row.observability?.agenda).toEqual({
      total: 3,
      completed: [],
      skipped: [],
      bypassed: [],
      pending_required: ['give_name', 'accept_confirmation'],
    })
  }, 60_000)
})

describe.each(['responses', 'client'] as const)('RUN backend consumption offline (%s)', (architecture) => {
  it('the assistant backend reports its tokens in the row and its messages in the details', async () => {
    const played = await play('run_001_booking_complete', architecture)
    const { execution, details } = await record(played, architecture)
    const { backend } = execution.row.metrics.consumption
    expect(backend.total_tokens).toBeGreaterThan(0)
    expect(backend.total_tokens).toBe(
      (backend.input?.total_tokens ?? 0) + (backend.output?.total_tokens ?? 0),
    )
    // What the backend handed the voice model (the booking's confirmation), in the details and the observation
    // the judge's evidence is built from.
    expect(details.backend_messages).toEqual([expect.stringContaining('Your reservation for Rivera')])
    expect(played.observed.observation.backend_messages).toEqual(details.backend_messages)
  }, 60_000)
})

describe('no_unexpected_side_effects reaches the row and the test (one verdict)', () => {
  it('a repeated booking in a call whose state still matches: a failed row naming the call, and a failing test', async () => {
    const played = await play('run_001_booking_complete', 'client')
    const booking = played.observed.observation.tool_executions.find(
      (execution) => execution.name === 'create_reservation',
    )
    if (booking === undefined) throw new Error('the offline call booked nothing')
    const repeated = {
      ...booking,
      call_id: 'call_repeated_booking',
      completed_at_ms: booking.completed_at_ms,
    }
    const observation = {
      ...played.observed.observation,
      tool_executions: [...played.observed.observation.tool_executions, repeated],
    }
    const { execution } = await record(played, 'client', { observation })
    const { row } = execution
    expect(row.status).toBe('failed')
    expect(row.metrics.task.task_completed).toBe(false)
    // The reference's checks keep their meaning: all of them passed, the extension says what failed.
    expect(row.assessment?.checks.filter((check) => check.required && check.status === 'failed')).toEqual([])
    expect(row.assessment?.passed).toBe(false)
    expect(row.observability?.completion).toMatchObject({ failed_checks: [] })
    const checks = row.observability?.live_evals?.checks ?? []
    expect(checks.filter((check) => check.required && check.status === 'failed')).toEqual([
      expect.objectContaining({
        id: 'no_unexpected_side_effects',
        status: 'failed',
        required: true,
        evidence: expect.objectContaining({
          duplicate_calls: [expect.objectContaining({ call_id: 'call_repeated_booking' })],
        }),
      }),
    ])
    // The caller-experience checks are reported beside it; the confirmation was of a booking that happened.
    expect(checks.find((check) => check.id === 'no_false_confirmation')?.status).toBe('passed')
    const run = scenarioRunOf(
      {
        scenarioId: played.scenario.id,
        architecture: 'client',
        expected: played.scenario.expected,
        failure: execution.failure,
        row,
        detailsPath: null,
      },
      execution,
    )
    expect(() => expect(run).toCompleteTask()).toThrow(
      /no_unexpected_side_effects[\s\S]*call_repeated_booking/,
    )
    const verdict = verdictOf({
      scenarioId: played.scenario.id,
      title: '',
      state: 'pass',
      errors: [],
      grades: [],
      row,
    })
    expect(verdict.failTestWith).toContain('failed checks: no_unexpected_side_effects')
  }, 60_000)
})
