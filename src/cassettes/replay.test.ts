import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { crawlPhase } from '../phases/crawl/index.ts'
import { syntheticCallerSource } from '../phases/engine/caller-sources.ts'
import type { ScenarioEnv, SingleTurnExecution } from '../phases/engine/execution.ts'
import { bundledCrawlScenario } from '../phases/single-turn/test-support.ts'
import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import type { Scenario } from '../scenarios/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { responsesRoute } from '../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import {
  changedApplication,
  executeLive,
  type LiveStandIns,
  liveArchitecture,
  liveCrawlSettings,
  SENTINEL_KEY,
} from './cassette.test-helpers.ts'
import { replayedRow } from './comparable-row.test-helpers.ts'
import { unstartedReplayOf } from './unstarted-replay.ts'

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

function replaySettings(env: Record<string, string> = {}) {
  return liveCrawlSettings(standIns, cassettes, { LIVE_EVALS_MODE: 'replay', ...env })
}

describe('replay of a recorded live execution, keyless and without the services', () => {
  test('every row equals the recorded one, times included, and says it was replayed from its cassette', async () => {
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
      expect(
        (execution.row.observability?.provenance as { execution_mode?: string } | undefined)?.execution_mode,
      ).toBe('replay')
      const original = recorded.get(architecture) as SingleTurnExecution
      expect(replayedRow(execution.row)).toEqual(replayedRow(original.row))
    }
    // Nothing reached the stand-ins: the replay server answered everything.
    expect(responses.requests.length).toBe(before)
  }, 120_000)
})

function cassetteOf(execution: SingleTurnExecution): CassetteRowExtension {
  const block = execution.row.observability?.live_evals as { cassette?: CassetteRowExtension } | undefined
  if (block?.cassette === undefined) throw new Error('the row has no cassette block')
  return block.cassette
}

describe('strict replay stops at the first divergence and names it', () => {
  test('a changed prompt: session.start #1, session.instructions, the character where it changed', async () => {
    const settings = await replaySettings()
    const application = changedApplication({
      voicePrompt: (prompt) => `${prompt} Always answer in one word.`,
    })
    const execution = await executeLive(scenario, settings, 'responses', standIns, {
      register: false,
      application,
    })
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.failure?.stage).toBe('replay')
    const cassette = cassetteOf(execution)
    expect(cassette).toMatchObject({ outcome: 'diverged', match: 'strict', divergence_count: 1 })
    expect(cassette.first_divergence).toMatchObject({
      channel: 'assistant',
      message: 'session.start #1',
      path: 'session.instructions',
    })
    expect(execution.failure?.message).toMatch(
      /^Replay of cassette crawl_001_booking_complete_request__responses diverged: assistant session\.start #1 \(turn 0\): session\.instructions changed at character \d+/,
    )
  }, 60_000)

  test('a changed tool output: the first frame carrying it, at the output path', async () => {
    const settings = await replaySettings()
    const application = changedApplication({
      toolOutput: (output) => ({ ...output, reservation_id: 'R-002' }),
    })
    const execution = await executeLive(scenario, settings, 'responses', standIns, {
      register: false,
      application,
    })
    expect(execution.failure?.stage).toBe('replay')
    const first = cassetteOf(execution).first_divergence
    expect(first?.channel).toBe('assistant')
    expect(first?.text).toContain('R-002')
    expect(first?.path).toMatch(/output/)
  }, 60_000)

  test('a changed caller text: the first caller audio frame that differs, by content hash', async () => {
    const settings = await replaySettings()
    const execution = await executeLive(scenario, settings, 'responses', standIns, {
      register: false,
      callerText: 'Cancel everything I ever booked, please.',
    })
    expect(execution.failure?.stage).toBe('replay')
    const first = cassetteOf(execution).first_divergence
    expect(first).toMatchObject({ channel: 'assistant', path: 'audio' })
    expect(first?.message).toMatch(/^session\.input_audio\.append #\d+$/)
    expect(first?.text).toContain('the caller audio differs')
  }, 60_000)

  test('lenient replay keeps going, grades the row and lists every divergence', async () => {
    const settings = await replaySettings({ LIVE_EVALS_REPLAY_MATCH: 'lenient' })
    const application = changedApplication({
      voicePrompt: (prompt) => `${prompt} Always answer in one word.`,
    })
    const execution = await executeLive(scenario, settings, 'responses', standIns, {
      register: false,
      application,
    })
    expect(execution.failure?.stage).not.toBe('replay')
    expect(['passed', 'failed']).toContain(execution.row.status)
    const cassette = cassetteOf(execution)
    expect(cassette).toMatchObject({ outcome: 'diverged', match: 'lenient' })
    expect(cassette.divergence_count).toBeGreaterThanOrEqual(1)
    expect(cassette.divergences[0]?.path).toBe('session.instructions')
  }, 60_000)
})

describe('a cassette that cannot answer this run fails loudly, by name', () => {
  test('a deleted cassette: infrastructure_error at stage replay, counted as missing, never a pass or a skip', async () => {
    const folder = join(cassettes, `${SCENARIO}__responses`)
    const aside = `${folder}.aside`
    await cp(folder, aside, { recursive: true })
    await rm(folder, { recursive: true })
    try {
      const execution = await executeLive(scenario, await replaySettings(), 'responses', standIns, {
        register: false,
      })
      expect(execution.row.status).toBe('infrastructure_error')
      expect(execution.failure).toEqual({
        stage: 'replay',
        message: expect.stringContaining(
          `No cassette ${SCENARIO}__responses at ${join(folder, 'cassette.json')}`,
        ),
      })
      expect(cassetteOf(execution)).toMatchObject({ outcome: 'missing', divergence_count: null })
    } finally {
      await cp(aside, folder, { recursive: true })
      await rm(aside, { recursive: true })
    }
  }, 60_000)

  test('another model, another scenario version or another format version is refused by name', async () => {
    const model = await executeLive(
      scenario,
      await replaySettings({ OPENAI_LIVE_MODEL: 'gpt-live-2' }),
      'responses',
      standIns,
      {
        register: false,
      },
    )
    expect(model.failure?.message).toContain(
      'was recorded with live model "gpt-live-1", but this run uses "gpt-live-2"',
    )
    expect(cassetteOf(model).outcome).toBe('refused')

    const edited = { ...scenario, title: `${scenario.title} (edited)` }
    const other = await executeLive(edited, await replaySettings(), 'responses', standIns, {
      register: false,
    })
    expect(other.failure?.message).toContain(`was recorded for another version of scenario ${SCENARIO}`)

    const file = join(cassettes, `${SCENARIO}__client`, 'cassette.json')
    const original = await readFile(file, 'utf8')
    const document = JSON.parse(original)
    // Version 1 placed no HTTP answer on the recording's order (answered_seq): a replay cannot play it.
    document.header.cassette_version = 1
    await writeFile(file, JSON.stringify(document))
    try {
      const version = await executeLive(scenario, await replaySettings(), 'client', standIns, {
        register: false,
      })
      expect(version.failure?.message).toContain('has format version 1; this live-evals reads version 2')
      expect(cassetteOf(version).outcome).toBe('refused')
    } finally {
      await writeFile(file, original)
    }
  }, 60_000)

  test('a cassette that is there but unreadable or not JSON: refused at stage replay, naming the file, not missing', async () => {
    const file = join(cassettes, `${SCENARIO}__responses`, 'cassette.json')
    const aside = `${file}.aside`
    await rename(file, aside)
    try {
      // A folder where cassette.json should be: the file exists as a name but cannot be read as one.
      await mkdir(file)
      const unreadable = await executeLive(scenario, await replaySettings(), 'responses', standIns, {
        register: false,
      })
      expect(unreadable.row.status).toBe('infrastructure_error')
      expect(unreadable.failure).toEqual({
        stage: 'replay',
        message: `Cassette ${SCENARIO}__responses (${file}) is there but cannot be read: it is a folder, not a file (EISDIR).`,
      })
      expect(cassetteOf(unreadable)).toMatchObject({ outcome: 'refused', divergence_count: null })
      await rm(file, { recursive: true })

      await writeFile(file, '{"header": ')
      const cut = await executeLive(scenario, await replaySettings(), 'responses', standIns, {
        register: false,
      })
      expect(cut.failure?.stage).toBe('replay')
      expect(cut.failure?.message).toContain(`Cassette ${SCENARIO}__responses (${file}) is not JSON (`)
      expect(cassetteOf(cut)).toMatchObject({ outcome: 'refused', divergence_count: null })
    } finally {
      await rm(file, { recursive: true, force: true })
      await rename(aside, file)
    }
  }, 60_000)
})

describe('a replay whose caller speech is not in the cassettes lands in its tally bucket, worded as a replay fact', () => {
  const changed = () => ({
    ...scenario,
    input: { ...scenario.input, text: 'Book a booth for Bennett, please.' },
  })
  /** The CRAWL caller source of a replay run and what it fails with, and the scenario's environment. */
  async function unprepared(env: Record<string, string>, spoken: Scenario) {
    const settings = await replaySettings(env)
    const error = await crawlPhase
      .callerSource(settings)
      .prepare(spoken, {})
      .then(
        () => null,
        (failure: unknown) => failure,
      )
    const scenarioEnv: ScenarioEnv = {
      settings,
      runDirectory: cassettes,
      offlineServer: null,
      architecture: liveArchitecture('responses', settings, responses.baseURL),
      callerSource: syntheticCallerSource,
    }
    return { error, context: { scenario: spoken, env: scenarioEnv } }
  }

  test('the speech error says the recording holds no speech for this text and to record again, not to check a key', async () => {
    const { error } = await unprepared({}, changed())
    expect(error).toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).toContain(
      'the recording holds no caller speech for this input.text ("Book a booth for Bennett, please.")',
    )
    expect(message).toContain('the speech model or the voice changed since it was recorded')
    expect(message).not.toMatch(/OPENAI_API_KEY|OPENAI_BASE_URL|api\.openai\.com|Text-to-speech request/)
  })

  test('a changed text under replay: refused as another version of the scenario, the speech fact added', async () => {
    const { error, context } = await unprepared({}, changed())
    const replay = await unstartedReplayOf(error, context)
    expect(replay?.cassette).toMatchObject({ mode: 'replay', outcome: 'refused', divergence_count: null })
    expect(replay?.failure.stage).toBe('replay')
    expect(replay?.failure.message).toMatch(
      new RegExp(
        `^Cassette ${SCENARIO}__responses was recorded for another version of scenario ${SCENARIO} `,
      ),
    )
    expect(replay?.failure.message).toContain('the recording holds no caller speech for this input.text')
    expect(replay?.error.message).toBe(replay?.failure.message)
  })

  test('a changed text under a re-grade (the cassette plays): a caller divergence, as any other divergence', async () => {
    const { error, context } = await unprepared({ LIVE_EVALS_REPLAY_REGRADE: '1' }, changed())
    const replay = await unstartedReplayOf(error, context)
    expect(replay?.cassette).toMatchObject({ outcome: 'diverged', match: 'strict', divergence_count: 1 })
    expect(replay?.cassette.first_divergence).toMatchObject({
      channel: 'caller',
      message: 'speech',
      path: 'caller.speech',
      recorded: null,
      now: '"Book a booth for Bennett, please."',
    })
    expect(replay?.failure).toEqual({
      stage: 'replay',
      message: expect.stringMatching(
        new RegExp(
          `^Replay of cassette ${SCENARIO}__responses diverged: caller speech \\(turn 0\\): the recording holds no caller speech`,
        ),
      ),
    })
  })

  test('a scenario never recorded is missing; a failure unrelated to a playable cassette stays its stage’s', async () => {
    const { error, context } = await unprepared({}, { ...changed(), id: 'crawl_never_recorded' })
    expect((await unstartedReplayOf(error, context))?.cassette.outcome).toBe('missing')
    const unrelated = await unprepared({}, scenario)
    expect(await unstartedReplayOf(new Error('the run stopped'), unrelated.context)).toBeNull()
  })
})
