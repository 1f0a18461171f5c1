// Issue 20's done-when for every bundled scenario (`npm run test:round-trip`; the unit run takes a fixed sample of
// them, round-trip-sample.test-helpers.ts says which and why): each CRAWL, WALK and RUN scenario (RUN's restaurant
// set with its policy scenarios, the reference-style set and the fault scenarios, each under its own fault
// profiles), in both architectures, is recorded in live mode against the dress-rehearsal server, all at once, in
// real time (text-to-speech, the assistant's and RUN's caller's GPT-Live sessions, the relay, the client backend,
// the completion observer and the judge, every one through its openai client). Then every one is replayed from its cassette with the server closed and no key, on the virtual clock:
// each replayed row equals its recording, status, checks and metrics, latencies and times included; only the
// row's provenance (replay, the virtual clock) and its cassette block differ. The recording's keys are in no
// cassette, and a RUN call that changed (its assistant's prompt, a tool's output, the caller's voice as the
// assistant hears it) stops a strict replay at its first divergence, named by its path; a deleted or foreign
// cassette is refused by name.
//
// The rehearsal must not hide a regression of its own: each recorded row's verdict is the bundled specs' verdict of
// the same scenario, the one `npm run test:evals` holds offline: passed, or failed on exactly the checks
// specs/run/faults.expected-failures.ts declares. (It used to run every scenario offline a second time beside the
// recording, about 25 CPU seconds of the unit run for what the evaluation suites already show.)
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FAULT_EXPECTED_FAILURES } from '../../specs/run/faults.expected-failures.ts'
import type { PhaseSettings } from '../config/index.ts'
import { createRateLimiter } from '../models/rate-limiter.ts'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { startRehearsalServer } from '../testing/rehearsal/index.ts'
import { failedRequiredChecks } from '../vitest/verdict.ts'
import {
  BUNDLED_DATASETS,
  type BundledCase,
  type BundledPhase,
  bundledCases,
  bundledSettings,
  bundledSettingsByDataset,
  bundledToml,
  executeCase,
  rehearsalRecordingEnv,
} from './bundled-executions.test-helpers.ts'
import { changedApplication } from './cassette.test-helpers.ts'
import { replayedRow } from './comparable-row.test-helpers.ts'
import { roundTripCases, roundTripScope } from './round-trip-sample.test-helpers.ts'

const API_KEY = 'sk-test-BUNDLEDREPLAY-api-key-5d2c91'
const RESPONSES_KEY = 'sk-test-BUNDLEDREPLAY-responses-key-8e7104'
const PHASES: readonly BundledPhase[] = ['crawl', 'walk', 'run']
/** 22 CRAWL, 28 WALK and 37 RUN scenarios (26 restaurant and reference-style, 11 fault), in two architectures. */
const BUNDLED_ROWS = 174
/** Every bundled row (ROUND_TRIP_ROWS=all) or the sample (round-trip-sample.test-helpers.ts). */
const SCOPE = roundTripScope()
/**
 * Recordings in flight at once: the calls are real time (14 s CRAWL and WALK requests, 30-50 s RUN calls, some
 * 3,500 call-seconds in all). 64 at once ended with the longest, but in a full unit run on two busy cores the
 * worker's event loop (these calls and the rehearsal server share it) fell behind: lines reached the rehearsal
 * caller in pieces, it missed farewells, and 15 calls ran to their time limit. At 32 the recording alone kept one
 * core busy, and a full unit run (four workers on two cores) gives a worker half of one: once, on a slower
 * machine, a RUN call's last line went unanswered and the call ran to its limit. 16 need about half a core.
 */
const RECORDINGS_AT_ONCE = 16
const RECORDING_SPACING_MS = 100
/**
 * Fault scenarios whose profile live mode cannot carry out in the Responses architecture: their rule stalls or
 * fails the backend model, which GPT-Live calls itself live (src/faults/reach.ts). Each is refused at input_setup,
 * naming the rule, when recorded and when replayed; it has no call to record.
 */
const OUT_OF_REACH_LIVE = new Set([
  'run_fault_007_booking_delegation_stall__responses',
  'run_fault_008_booking_delegation_error__responses',
])
/** Replays in flight at once (each is a few hundred ms of CPU): the worker stays responsive for the round trips. */
const REPLAYS_AT_ONCE = 16
/**
 * Recording is real time (every row: some 220 s at 16 at once; the sample: about 60 s), then the replays, on a
 * machine busy with the other files.
 */
const SETUP_TIMEOUT_MS = 720_000

let dir = ''
/** Every bundled row, and the ones this run records and replays. */
let bundled: BundledCase[] = []
let cases: BundledCase[] = []
const recorded = new Map<string, ScenarioExecution>()
const replayed = new Map<string, ScenarioExecution>()
/** What the rehearsal's caller sessions of each RUN scenario heard and decided, kept before the server closes. */
const callerJournals = new Map<string, string[][]>()
const previousBaseURL = process.env.OPENAI_BASE_URL

const settingsByDataset = (env: Record<string, string>) =>
  bundledSettingsByDataset(PHASES, env, join(dir, 'cassettes'))

/**
 * A RUN call as its details tell it (how it ended, who said what when), and what the rehearsal's caller sessions
 * of its scenario heard and decided (both architectures', in the order they started), for a message; '' for other
 * phases.
 */
async function howItWent(kase: BundledCase, execution: ScenarioExecution | undefined): Promise<string> {
  const path = execution?.artifacts.details
  if (path == null) return ''
  const details = JSON.parse(await readFile(path, 'utf8')) as {
    termination_reason?: string | null
    transcript?: { role?: string; text?: string; startMs?: number; cut?: boolean }[]
  }
  if (details.termination_reason === undefined) return ''
  const lines = (details.transcript ?? []).map(
    (line) => `${line.startMs} ${line.role}: ${line.text}${line.cut ? ' (cut)' : ''}`,
  )
  const journals = (callerJournals.get(kase.scenario.id) ?? []).map(
    (journal, index) => `caller session ${index + 1} of the scenario:\n    ${journal.join('\n    ')}`,
  )
  return `; ended ${details.termination_reason}:\n  ${[...lines, ...journals].join('\n  ')}`
}

const cassetteOf = (row: ResultItem): CassetteRowExtension | undefined =>
  (row.observability?.live_evals as { cassette?: CassetteRowExtension } | undefined)?.cassette

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-bundled-replay-'))
  bundled = await bundledCases(PHASES)
  cases = roundTripCases(bundled, SCOPE)
  const server = await startRehearsalServer({ datasets: PHASES.flatMap((phase) => BUNDLED_DATASETS[phase]) })
  // The openai clients of text-to-speech, the client backend, the observer and the judge read it.
  process.env.OPENAI_BASE_URL = server.baseURL
  try {
    const live = await settingsByDataset({
      ...rehearsalRecordingEnv(server, API_KEY),
      OPENAI_RESPONSES_API_KEY: RESPONSES_KEY,
    })
    // The longest calls (RUN) first, the shorter ones filling the places they leave, started a little apart: a
    // burst of every session at once, each opening and (CRAWL) synthesising its request, can keep the rehearsal
    // server from accepting some connections within the start deadline on a busy machine.
    const limiter = createRateLimiter({
      maxConcurrent: RECORDINGS_AT_ONCE,
      minIntervalMs: RECORDING_SPACING_MS,
    })
    const longestFirst = [...cases].sort((a, b) => Number(b.phase === 'run') - Number(a.phase === 'run'))
    await Promise.all(
      longestFirst.map((kase) =>
        limiter.run(async () => {
          const settings = live.get(kase.dataset) as PhaseSettings
          // A folder per architecture: the details of both rows of a scenario are kept, for the messages below.
          const folder = join(dir, 'recorded', kase.phase, kase.architecture)
          recorded.set(kase.id, await executeCase(kase, settings, folder))
        }),
      ),
    )
  } finally {
    for (const kase of cases) {
      if (kase.phase === 'run') callerJournals.set(kase.scenario.id, server.callerJournals(kase.scenario.id))
    }
    // Closed before the replay: anything the replay asked of it would fail (OPENAI_BASE_URL still names it).
    await server.close()
  }
  const replay = await settingsByDataset({ LIVE_EVALS_MODE: 'replay' })
  const limiter = createRateLimiter({ maxConcurrent: REPLAYS_AT_ONCE })
  await Promise.all(
    cases.map((kase) =>
      limiter.run(async () => {
        const settings = replay.get(kase.dataset) as PhaseSettings
        replayed.set(kase.id, await executeCase(kase, settings, join(dir, 'replayed', kase.phase)))
      }),
    ),
  )
}, SETUP_TIMEOUT_MS)

afterAll(async () => {
  if (previousBaseURL === undefined) delete process.env.OPENAI_BASE_URL
  else process.env.OPENAI_BASE_URL = previousBaseURL
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

describe(`every bundled scenario (${SCOPE === 'all' ? 'all of them' : 'the sample'}), recorded live against the dress rehearsal, replays keyless`, () => {
  test('all three phases, both architectures: every row was recorded and graded, and replayed from its cassette', () => {
    expect(bundled).toHaveLength(BUNDLED_ROWS)
    expect(new Set(cases.map((kase) => kase.phase))).toEqual(new Set(PHASES))
    expect(recorded.size).toBe(cases.length)
    expect(replayed.size).toBe(cases.length)
    for (const [id, execution] of recorded) {
      if (OUT_OF_REACH_LIVE.has(id)) {
        for (const row of [execution.row, replayed.get(id)?.row]) {
          expect(row?.error, id).toMatchObject({ stage: 'input_setup' })
          expect(row?.error?.message, id).toMatch(
            /cannot be injected in this run \(responses architecture, (live|replay)\)/,
          )
        }
        continue
      }
      // A recording that could not run or be written is an infrastructure error; the live run graded every call.
      expect(execution.row.status, `${id}: ${JSON.stringify(execution.row.error)}`).not.toBe(
        'infrastructure_error',
      )
      expect(cassetteOf(execution.row)).toMatchObject({ mode: 'recorded', id })
    }
    for (const [id, execution] of replayed) {
      if (OUT_OF_REACH_LIVE.has(id)) continue
      const why = `${id}: ${cassetteOf(execution.row)?.first_divergence?.text ?? execution.row.error?.message}`
      expect(cassetteOf(execution.row), why).toMatchObject({
        mode: 'replay',
        id,
        outcome: 'replayed',
        divergence_count: 0,
      })
      // Single-turn rows name their mode and clock (RUN rows name neither: their cassette block says replay).
      if (execution.row.observability?.provenance !== undefined) {
        expect(execution.row.observability.provenance, id).toMatchObject({
          execution_mode: 'replay',
          clock: 'virtual',
        })
      }
    }
  })

  test("every recorded row's verdict is the bundled specs' (offline) verdict: passed, or failed on exactly the declared checks", async () => {
    const declared = new Map(
      FAULT_EXPECTED_FAILURES.map((failure) => [failure.scenario, [...failure.checks]]),
    )
    expect(cases.filter((kase) => declared.has(kase.scenario.id))).toHaveLength(2 * declared.size)
    const differing: string[] = []
    for (const kase of cases) {
      if (OUT_OF_REACH_LIVE.has(kase.id)) continue
      const live = recorded.get(kase.id)?.row
      const failed = live === undefined ? [] : failedRequiredChecks(live).sort()
      const checks = declared.get(kase.scenario.id)
      const expected = checks === undefined ? 'passed' : `failed on ${checks.sort().join(', ')}`
      const got = live?.status === 'failed' ? `failed on ${failed.join(', ')}` : live?.status
      if (got !== expected) {
        differing.push(
          `${kase.id}: specs ${expected}, rehearsal ${got}${await howItWent(kase, recorded.get(kase.id))}`,
        )
      }
    }
    expect(differing).toEqual([])
    // An entry naming no bundled row (a renamed scenario) would silently exempt nothing and check nothing.
    const known = new Set(bundled.map((kase) => kase.id))
    expect([...OUT_OF_REACH_LIVE].filter((id) => !known.has(id))).toEqual([])
  })

  test('every replayed row equals its recording: status, checks, metrics, latencies and times', () => {
    const differing = cases.filter(
      (kase) =>
        !OUT_OF_REACH_LIVE.has(kase.id) &&
        !isDeepStrictEqual(
          replayedRow(replayed.get(kase.id)?.row as ResultItem),
          replayedRow(recorded.get(kase.id)?.row as ResultItem),
        ),
    )
    for (const kase of differing.slice(0, 1)) {
      const why = `${kase.id} (${differing.length} rows differ: ${differing.map((each) => each.id).join(', ')})`
      expect(replayedRow(replayed.get(kase.id)?.row as ResultItem), why).toEqual(
        replayedRow(recorded.get(kase.id)?.row as ResultItem),
      )
    }
    expect(differing.map((kase) => kase.id)).toEqual([])
  })

  test('no key of the recording is in any cassette (frames, audio, HTTP bodies, CRAWL speech)', async () => {
    const entries = await readdir(join(dir, 'cassettes'), { recursive: true, withFileTypes: true })
    const files = entries.filter((entry) => entry.isFile())
    expect(files.length).toBeGreaterThan(cases.length)
    for (const file of files) {
      const bytes = await readFile(join(file.parentPath, file.name))
      expect(bytes.includes(Buffer.from('BUNDLEDREPLAY')), join(file.parentPath, file.name)).toBe(false)
    }
  })
})

describe('a RUN call that changed stops a strict replay at its first divergence', () => {
  const RUN_ID = 'run_002_booking_missing_name__responses'
  const runCase = () => cases.find((kase) => kase.id === RUN_ID) as BundledCase

  async function replayRun(options: { toml?: string[]; application?: Parameters<typeof executeCase>[3] }) {
    const kase = runCase()
    const settings = await bundledSettings(kase.phase, kase.dataset, { LIVE_EVALS_MODE: 'replay' }, [
      ...bundledToml(kase.phase, join(dir, 'cassettes')),
      ...(options.toml ?? []),
    ])
    const execution = await executeCase(kase, settings, join(dir, 'diverged'), options.application)
    return { execution, cassette: cassetteOf(execution.row) }
  }

  test("the assistant's prompt: its session.start, at session.instructions", async () => {
    const { execution, cassette } = await replayRun({
      application: changedApplication({ voicePrompt: (prompt) => `${prompt} Always answer in one word.` }),
    })
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.failure?.stage).toBe('replay')
    expect(cassette?.outcome).toBe('diverged')
    expect(cassette?.first_divergence).toMatchObject({
      channel: 'assistant',
      message: 'session.start #1',
      path: 'session.instructions',
    })
    expect(execution.failure?.message).toMatch(
      new RegExp(`^Replay of cassette ${RUN_ID} diverged: assistant session\\.start #1 \\(turn 0\\)`),
    )
  }, 60_000)

  test("a tool's output: the frame that carries it back to the service, at its output", async () => {
    const { execution, cassette } = await replayRun({
      application: changedApplication({ toolOutput: (output) => ({ ...output, reservation_id: 'R-777' }) }),
    })
    expect(execution.failure?.stage).toBe('replay')
    expect(cassette?.first_divergence?.channel).toBe('assistant')
    expect(cassette?.first_divergence?.path).toMatch(/output/)
    expect(cassette?.first_divergence?.text).toContain('R-777')
  }, 60_000)

  test("the caller's voice as the assistant hears it (another acoustic preset): the first frame, by content", async () => {
    const { execution, cassette } = await replayRun({ toml: ['condition = "noisy"'] })
    expect(execution.failure?.stage).toBe('replay')
    expect(cassette?.first_divergence).toMatchObject({ channel: 'assistant', path: 'audio' })
    expect(cassette?.first_divergence?.message).toMatch(/^session\.input_audio\.append #\d+$/)
    expect(cassette?.first_divergence?.text).toContain('the caller audio differs')
  }, 60_000)

  test('a deleted cassette fails its row loudly, naming it; an edited caller line is another scenario, refused', async () => {
    const kase = runCase()
    const folder = join(dir, 'cassettes', RUN_ID)
    const moved = `${folder}.away`
    await rename(folder, moved)
    try {
      const { execution, cassette } = await replayRun({})
      expect(execution.row.status).toBe('infrastructure_error')
      expect(cassette?.outcome).toBe('missing')
      expect(execution.failure?.message).toContain(`No cassette ${RUN_ID}`)
    } finally {
      await rename(moved, folder)
    }
    const settings = await bundledSettings(kase.phase, kase.dataset, { LIVE_EVALS_MODE: 'replay' }, [
      ...bundledToml(kase.phase, join(dir, 'cassettes')),
    ])
    const edited = {
      ...kase,
      scenario: { ...kase.scenario, input: { ...kase.scenario.input, text: 'Hello?' } },
    }
    const execution = await executeCase(edited, settings, join(dir, 'diverged'))
    expect(cassetteOf(execution.row)?.outcome).toBe('refused')
    expect(execution.failure?.message).toContain('was recorded for another version of scenario')
  }, 60_000)
})
