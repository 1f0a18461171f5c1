// A recorded WALK caller replayed into the live assistant, without a key: walk_001 (Responses delegation) is
// recorded live against the dress-rehearsal server, then replay.caller streams the request audio that recording
// sent (not the dataset's WAV: the caller source is the cassette's) into the unchanged assistant, and into one whose
// create_reservation now fails. Unchanged: the rehearsal hears the same audio, the reply is the recorded one, no
// departure, graded as a WALK row. Changed: the reply (turn 1, after the only request) departs, named with both texts;
// the caller says nothing after it, so the whole exchange is comparable.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AssistantApplication } from '../../assistants/application.ts'
import type { WalkSettings } from '../../config/index.ts'
import { architectureFor } from '../../phases/engine/architecture-choice.ts'
import type { ScenarioEnv, SingleTurnExecution } from '../../phases/engine/execution.ts'
import { runScenario } from '../../phases/engine/run-scenario.ts'
import { freshRunDirectory, settingsFromToml } from '../../phases/single-turn/test-support.ts'
import { walkPhase } from '../../phases/walk/index.ts'
import { BUNDLED_WALK_DATASET } from '../../phases/walk/walk.test-helpers.ts'
import type { CallerReplayRowExtension } from '../../reporting/extensions/caller-replay.ts'
import { assistantVisibleInput, loadDataset, type Scenario } from '../../scenarios/index.ts'
import { type RehearsalServer, startRehearsalServer } from '../../testing/rehearsal/index.ts'
import { changedApplication } from '../cassette.test-helpers.ts'

const SCENARIO = 'walk_001_booking_complete_request'
const KEY = 'sk-test-REHEARSAL-walk-caller-4f2a'
let server: RehearsalServer
let scenario: Scenario
let cassettes = ''
let recorded: SingleTurnExecution
let same: SingleTurnExecution
let changed: SingleTurnExecution
const folders: string[] = []

function settings(env: Record<string, string>): Promise<WalkSettings> {
  return settingsFromToml(
    'walk',
    [
      '[dataset]',
      `path = ${JSON.stringify(BUNDLED_WALK_DATASET)}`,
      '[execution]',
      'response_timeout_seconds = 20',
      '[grading]',
      'enabled = false',
    ],
    { ...server.env, OPENAI_API_KEY: KEY, LIVE_EVALS_MODE: 'live', ...env },
  )
}

async function execute(walk: WalkSettings, application?: AssistantApplication) {
  const architecture = architectureFor('responses', walk, application === undefined ? {} : { application })
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  const env: ScenarioEnv = {
    settings: walk,
    runDirectory,
    offlineServer: null,
    architecture,
    callerSource: walkPhase.callerSource(walk),
  }
  return runScenario(walkPhase, scenario, env, {
    application: architecture.createApplication(assistantVisibleInput(scenario)),
  })
}

const callerReplayOf = (execution: SingleTurnExecution) =>
  (execution.row.observability?.live_evals as { caller_replay?: CallerReplayRowExtension } | undefined)
    ?.caller_replay

beforeAll(async () => {
  server = await startRehearsalServer({ datasets: [BUNDLED_WALK_DATASET] })
  const dataset = await loadDataset(BUNDLED_WALK_DATASET)
  scenario = dataset.scenarios.find((candidate) => candidate.id === SCENARIO) as Scenario
  cassettes = await mkdtemp(join(tmpdir(), 'live-evals-walk-caller-'))
  recorded = await execute(await settings({ LIVE_EVALS_RECORD: '1', LIVE_EVALS_CASSETTES: cassettes }))
  const replayed = await settings({ LIVE_EVALS_REPLAY_CALLER: cassettes })
  const failing = changedApplication({
    toolOutput: (output) =>
      'reservation_id' in output ? { ok: false, error: 'the booking system is down' } : output,
  })
  ;[same, changed] = await Promise.all([execute(replayed), execute(replayed, failing)])
}, 180_000)

afterAll(async () => {
  await server?.close()
  await Promise.all(
    [cassettes, ...folders]
      .filter((folder) => folder !== '')
      .map((folder) => rm(folder, { recursive: true, force: true })),
  )
})

describe('a recorded WALK caller streamed into the live assistant', () => {
  test('the unchanged assistant hears the recorded request and answers as recorded: no departure', () => {
    expect(recorded.row.status, JSON.stringify(recorded.row.assessment)).toBe('passed')
    const replay = callerReplayOf(same) as CallerReplayRowExtension
    expect(replay, JSON.stringify(same.row.error)).toMatchObject({
      cassette: `${SCENARIO}__responses`,
      departure: null,
      graded: 'whole_call',
    })
    expect(replay.recorded_turns).toBe(1)
    expect(same.row.status).toBe('passed')
    expect(replay.tool_calls.now).toEqual(replay.tool_calls.recorded)
    // The request is the recording's audio, not the dataset's file.
    expect(same.row.recording ?? null).toBeNull()
  })

  test('a failing booking tool: the reply departs, named with both texts, the whole exchange comparable', () => {
    const replay = callerReplayOf(changed) as CallerReplayRowExtension
    expect(replay.departure, JSON.stringify(changed.row.error)).toMatchObject({
      turn: 1,
      caller_silenced_at_ms: null,
    })
    expect(replay.departure?.now).not.toBe(replay.departure?.recorded)
    expect(replay.graded).toBe('whole_call')
    expect(replay.note).toContain('left the recording at assistant turn 1, its last')
  })
})
