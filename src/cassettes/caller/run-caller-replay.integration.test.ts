// Real caller, changed agent, end to end without a key: a RUN conversation (run_001, Responses delegation) is
// recorded live against the dress-rehearsal server, then its recorded caller is streamed on its original clock into
// the live assistant three times: unchanged (the call follows the recording, the whole call is graded), with a
// create_reservation that now fails (the conversation departs at the reply to the booking: the turn is named with
// both texts, the caller is silenced there, the row says it was graded until the departure), and with that same
// changed tool but replay.caller_tools = "cassette" (the recording's outputs answer, so nothing departs). The
// departed call ends once the assistant is done after the departure, not at the maximum duration; so does the
// cassette-tools call once its recording has played out (no observer verdict comes: the state never holds the
// booking), while the unchanged one still ends on its recording's own ending. The same recording is also re-graded
// (replay.regrade, the replay `live-evals grade --cassettes` runs), keyless and strict: on the replay's virtual
// clock its row equals the recorded one, times included.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { AssistantApplication } from '../../assistants/application.ts'
import { responsesDelegation } from '../../assistants/architectures/index.ts'
import type { RunSettings } from '../../config/index.ts'
import { architectureFor } from '../../phases/engine/architecture-choice.ts'
import type { MultiTurnExecution, ScenarioEnv } from '../../phases/engine/execution.ts'
import { runScenario } from '../../phases/engine/run-scenario.ts'
import { bundledRunScenario } from '../../phases/run/conversation.test-helpers.ts'
import { runCallerSource, runPhase } from '../../phases/run/index.ts'
import { freshRunDirectory, settingsFromToml } from '../../phases/single-turn/test-support.ts'
import type { CallerReplayRowExtension } from '../../reporting/extensions/caller-replay.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import { type RehearsalServer, startRehearsalServer } from '../../testing/rehearsal/index.ts'
import { ROOT } from '../../vitest/child-vitest.test-helpers.ts'
import { changedApplication } from '../cassette.test-helpers.ts'
import { replayedRow } from '../comparable-row.test-helpers.ts'

const SCENARIO = 'run_001_booking_complete'
const DATASET = join(ROOT, 'scenarios/run/restaurant.json')
const KEY = 'sk-test-REHEARSAL-caller-replay-7c1d'
/** Longer than the recorded call (about 30 s of audio); a departed call that never drains ends here. */
const MAX_DURATION_SECONDS = 45

let server: RehearsalServer
let scenario: Scenario
let cassettes = ''
let recorded: MultiTurnExecution
const replays = new Map<'same' | 'changed' | 'cassette_tools' | 'regraded', MultiTurnExecution>()
const folders: string[] = []

function settings(env: Record<string, string>): Promise<RunSettings> {
  return settingsFromToml(
    'run',
    [
      '[dataset]',
      `path = ${JSON.stringify(DATASET)}`,
      '[simulation]',
      `max_duration_seconds = ${MAX_DURATION_SECONDS}`,
      '[grading]',
      'enabled = false',
    ],
    { ...server.env, OPENAI_API_KEY: KEY, LIVE_EVALS_MODE: 'live', ...env },
  )
}

async function execute(runSettings: RunSettings, application?: AssistantApplication) {
  const architecture = architectureFor(
    'responses',
    runSettings,
    application === undefined ? {} : { application },
  )
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  const env: ScenarioEnv<RunSettings> = {
    settings: runSettings,
    runDirectory,
    offlineServer: null,
    architecture,
    callerSource: runCallerSource,
  }
  return runScenario(runPhase, scenario, env, {
    application: architecture.createApplication(assistantVisibleInput(scenario)),
  })
}

/**
 * The bundled assistant whose create_reservation now fails, booking nothing: what a pull request breaking the tool
 * would do. (A tool that still booked and only said it failed would leave the reservation in the state.)
 */
const failingBooking = () =>
  changedApplication({ refusedTool: { name: 'create_reservation', message: 'the booking system is down' } })

/** The completion signal whose drain ended the call, from the RUN details. */
async function completionSignalOf(execution: MultiTurnExecution): Promise<unknown> {
  const details = JSON.parse(await readFile(execution.artifacts.details as string, 'utf8'))
  return (details as { completion_signal?: unknown }).completion_signal
}

const callerReplayOf = (execution: MultiTurnExecution | undefined) =>
  (execution?.row.observability?.live_evals as { caller_replay?: CallerReplayRowExtension } | undefined)
    ?.caller_replay

beforeAll(async () => {
  server = await startRehearsalServer({ datasets: [DATASET] })
  // The completion observer's openai client reads its endpoint from the environment, as in a live run.
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
  scenario = await bundledRunScenario(SCENARIO)
  cassettes = await mkdtemp(join(tmpdir(), 'live-evals-caller-replay-'))
  recorded = await execute(await settings({ LIVE_EVALS_RECORD: '1', LIVE_EVALS_CASSETTES: cassettes }))
  const replayed = await settings({ LIVE_EVALS_REPLAY_CALLER: cassettes })
  const fromCassette = await settings({
    LIVE_EVALS_REPLAY_CALLER: cassettes,
    LIVE_EVALS_REPLAY_CALLER_TOOLS: 'cassette',
  })
  const regrade = await settings({
    LIVE_EVALS_MODE: 'replay',
    LIVE_EVALS_REPLAY_REGRADE: '1',
    LIVE_EVALS_CASSETTES: cassettes,
  })
  // Four calls at once: each waits on its own real-time clock.
  const [same, changed, cassetteTools, regraded] = await Promise.all([
    execute(replayed, responsesDelegation().application),
    execute(replayed, failingBooking()),
    execute(fromCassette, failingBooking()),
    execute(regrade),
  ])
  replays.set('regraded', regraded)
  replays.set('same', same)
  replays.set('changed', changed)
  replays.set('cassette_tools', cassetteTools)
}, 240_000)

afterAll(async () => {
  vi.unstubAllEnvs()
  await server?.close()
  await Promise.all(
    [cassettes, ...folders]
      .filter((folder) => folder !== '')
      .map((folder) => rm(folder, { recursive: true, force: true })),
  )
})

describe('a recorded RUN conversation re-graded', () => {
  test('keyless, its row equals the recorded one; the judge did not run then and does not now', () => {
    const regraded = replays.get('regraded') as MultiTurnExecution
    expect(replayedRow(regraded.row)).toEqual(replayedRow(recorded.row))
    expect(regraded.row.observability?.live_evals).toMatchObject({
      regrade: { cassette: `${SCENARIO}__responses`, scenario_changed: false, judge: 'not_run' },
      cassette: { mode: 'replay', match: 'strict', outcome: 'replayed' },
    })
  })
})

describe('a recorded RUN caller streamed into the live assistant', () => {
  test('the recording is a passing live call', () => {
    expect(recorded.row.status, JSON.stringify(recorded.row.assessment)).toBe('passed')
    expect(callerReplayOf(recorded)).toBeUndefined()
  })

  test('into the unchanged assistant: no departure, the whole call graded, as recorded', async () => {
    const same = replays.get('same') as MultiTurnExecution
    const replay = callerReplayOf(same) as CallerReplayRowExtension
    expect(replay, JSON.stringify(same.row.error)).toMatchObject({
      cassette: `${SCENARIO}__responses`,
      tools: 'application',
      departure: null,
      graded: 'whole_call',
    })
    expect(replay.recorded_turns).toBeGreaterThan(1)
    expect(replay.tool_calls.now).toEqual(replay.tool_calls.recorded)
    expect(same.row.status).toBe('passed')
    // It ends on the recording's own ending (the observer's verdict), which came before the recording played out.
    expect(same.observation?.termination_reason).toBe('response_completed')
    expect(await completionSignalOf(same)).toBe(await completionSignalOf(recorded))
  })

  test('into an assistant whose booking now fails: the departing turn is named and the caller silenced there', async () => {
    const changed = replays.get('changed') as MultiTurnExecution
    const replay = callerReplayOf(changed) as CallerReplayRowExtension
    expect(replay.departure, JSON.stringify(changed.row.error)).not.toBeNull()
    const departure = replay.departure as NonNullable<CallerReplayRowExtension['departure']>
    expect(departure.turn).toBeGreaterThan(0)
    expect(departure.recorded).not.toBe(departure.now)
    expect(departure.caller_silenced_at_ms).not.toBeNull()
    expect(replay.graded).toBe('until_departure')
    expect(replay.note).toContain(`left the recording at assistant turn ${departure.turn}`)
    // The call after the departure is the assistant's alone: the booking it could not make is not in the state.
    expect(changed.row.status).toBe('failed')
    // With its caller silenced the call ends once the assistant is done, not at the maximum duration.
    expect(changed.observation?.termination_reason).toBe('response_completed')
    expect(await completionSignalOf(changed)).toBe('replayed_caller_silenced')
  })

  test('with caller_tools = "cassette" the recorded outputs answer the changed tool: nothing departs', async () => {
    const cassetteTools = replays.get('cassette_tools') as MultiTurnExecution
    const replay = callerReplayOf(cassetteTools) as CallerReplayRowExtension
    expect(replay, JSON.stringify(cassetteTools.row.error)).toMatchObject({
      tools: 'cassette',
      departure: null,
    })
    expect(replay.note).toContain('the application state did not change')
    // Nothing departed and no verdict came, yet the recording had nothing left: the call ends once it played out
    // and the assistant was done, not at the maximum duration.
    expect(cassetteTools.observation?.termination_reason).toBe('response_completed')
    expect(await completionSignalOf(cassetteTools)).toBe('replayed_caller_played_out')
  })
})
