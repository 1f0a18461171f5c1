// Issue 20's done-when for every bundled scenario, for one architecture (a test file per architecture, so the two
// halves record in two workers at once: bundled-round-trip-responses.integration.test.ts and
// bundled-round-trip-client.integration.test.ts). Each CRAWL, WALK and RUN scenario (RUN's restaurant set with its
// policy scenarios, the reference-style set and the fault scenarios, each under its own fault profiles) is recorded
// in live mode against the dress-rehearsal server, several at once, in real time (text-to-speech, the assistant's and
// RUN's caller's GPT-Live sessions, the relay, the client backend, the completion observer and the judge, every one
// through its openai client). Then every one is replayed from its cassette with the server closed and no key, on
// the virtual clock: each replayed row equals its recording, status, checks and metrics, latencies and times
// included; only the row's provenance (replay, the virtual clock) and its cassette block differ. The recording's
// keys are in no cassette.
//
// The rehearsal must not hide a regression of its own: each recorded row's verdict is the bundled specs' verdict of
// the same scenario, the one `npm run test:evals` holds offline: passed, or failed on exactly the checks
// specs/run/faults.expected-failures.ts declares. (It used to run every scenario offline a second time beside the
// recording, about 25 CPU seconds of the unit run for what the evaluation suites already show.)
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FAULT_EXPECTED_FAILURES } from '../../specs/run/faults.expected-failures.ts'
import type { Architecture } from '../assistants/frontend/index.ts'
import type { PhaseSettings } from '../config/index.ts'
import { createRateLimiter } from '../models/rate-limiter.ts'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { startRehearsalServer } from '../testing/rehearsal/index.ts'
import { failedRequiredChecks } from '../vitest/verdict.ts'
import {
  ARCHITECTURES,
  BUNDLED_DATASETS,
  type BundledCase,
  type BundledPhase,
  bundledCases,
  bundledSettingsByDataset,
  executeCase,
  rehearsalRecordingEnv,
} from './bundled-executions.test-helpers.ts'
import { replayedRow } from './comparable-row.test-helpers.ts'

const API_KEY = 'sk-test-BUNDLEDREPLAY-api-key-5d2c91'
const RESPONSES_KEY = 'sk-test-BUNDLEDREPLAY-responses-key-8e7104'
const PHASES: readonly BundledPhase[] = ['crawl', 'walk', 'run']
/** An architecture's rows: 22 CRAWL, 28 WALK and 37 RUN scenarios (26 restaurant and reference-style, 11 fault). */
const BUNDLED_ROWS_PER_ARCHITECTURE = 87
/**
 * Recordings in flight at once, per architecture: the calls are real time (14 s CRAWL and WALK requests, 30-50 s RUN
 * calls, some 1,750 call-seconds per architecture). 64 at once in one worker ended with the longest, but in a full
 * unit run on two busy cores the worker's event loop (these calls and the rehearsal server share it) fell behind:
 * lines reached the rehearsal caller in pieces, it missed farewells, and 15 calls ran to their time limit. At 32 the
 * recording alone kept one core busy; at 16 in one worker, a RUN call's last line once went unanswered in a full
 * unit run and the call ran to its limit (and once more with 16 in each of two workers). So each architecture's
 * file records 8 at once in its own worker, with its own rehearsal server: 16 calls in all, as before, on two event
 * loops, each needing about a quarter of a core.
 */
const RECORDINGS_AT_ONCE = 8
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
/**
 * Rows where the dress rehearsal is known to reach another verdict than offline, and why. Each entry is an open
 * defect of the rehearsal, not of the assistant; the verdict test fails when an entry no longer differs, so the
 * list cannot outlive its reason.
 * - uplink loss: the rehearsal server recognises caller speech by its content (speech-catalogue.ts); with a burst
 *   of the request silenced it cannot make the request out, where the offline server still takes it.
 * (The client delegation error left this list when the delegation controller began telling GPT-Live that its
 * backend failed: before, the rehearsal's voice model had nothing to say and the call ran to its duration limit.)
 */
const REHEARSAL_DIFFERS = new Set([
  'run_fault_011_booking_uplink_loss__responses',
  'run_fault_011_booking_uplink_loss__client',
])
/** Replays in flight at once (each is a few hundred ms of CPU): the worker stays responsive for the round trips. */
const REPLAYS_AT_ONCE = 16
/**
 * Recording is real time (some 220 s at 8 at once for an architecture), then the replays, on a machine busy with
 * the other files.
 */
const SETUP_TIMEOUT_MS = 720_000

/** A RUN call as its details tell it (how it ended, who said what when), for a message; '' for other phases. */
async function howItWent(execution: ScenarioExecution | undefined): Promise<string> {
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
  return `; ended ${details.termination_reason}:\n  ${lines.join('\n  ')}`
}

export const cassetteOf = (row: ResultItem): CassetteRowExtension | undefined =>
  (row.observability?.live_evals as { cassette?: CassetteRowExtension } | undefined)?.cassette

/** What a file's round trip left, for its own further tests. */
export interface BundledRoundTrip {
  /** The architecture's rows, in bundled order. */
  cases(): BundledCase[]
  /** The scratch folder: `cassettes/` holds each row's cassette. */
  dir(): string
}

/** Records and replays every bundled scenario in `architecture`, and registers the tests on what came of it. */
export function bundledRoundTrip(architecture: Architecture): BundledRoundTrip {
  let dir = ''
  let cases: BundledCase[] = []
  const recorded = new Map<string, ScenarioExecution>()
  const replayed = new Map<string, ScenarioExecution>()
  const previousBaseURL = process.env.OPENAI_BASE_URL
  const settingsByDataset = (env: Record<string, string>) =>
    bundledSettingsByDataset(PHASES, env, join(dir, 'cassettes'))
  // The exemption lists name rows of both architectures; this file checks its own.
  const mine = (ids: ReadonlySet<string>) =>
    new Set([...ids].filter((id) => id.endsWith(`__${architecture}`)))
  const outOfReachLive = mine(OUT_OF_REACH_LIVE)
  const rehearsalDiffers = mine(REHEARSAL_DIFFERS)

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `live-evals-bundled-replay-${architecture}-`))
    cases = (await bundledCases(PHASES)).filter((kase) => kase.architecture === architecture)
    const server = await startRehearsalServer({
      datasets: PHASES.flatMap((phase) => BUNDLED_DATASETS[phase]),
    })
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

  describe(`every bundled scenario in the ${architecture} architecture, recorded live against the dress rehearsal, replays keyless`, () => {
    test('all three phases: every row was recorded and graded, and replayed from its cassette', () => {
      expect(cases).toHaveLength(BUNDLED_ROWS_PER_ARCHITECTURE)
      expect(recorded.size).toBe(BUNDLED_ROWS_PER_ARCHITECTURE)
      for (const [id, execution] of recorded) {
        if (outOfReachLive.has(id)) {
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
        if (outOfReachLive.has(id)) continue
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
      expect(cases.filter((kase) => declared.has(kase.scenario.id))).toHaveLength(declared.size)
      const differing: string[] = []
      const noLongerDiffering: string[] = []
      for (const kase of cases) {
        if (outOfReachLive.has(kase.id)) continue
        const live = recorded.get(kase.id)?.row
        const failed = live === undefined ? [] : failedRequiredChecks(live).sort()
        const checks = declared.get(kase.scenario.id)
        const expected = checks === undefined ? 'passed' : `failed on ${checks.sort().join(', ')}`
        const got = live?.status === 'failed' ? `failed on ${failed.join(', ')}` : live?.status
        if (rehearsalDiffers.has(kase.id)) {
          if (got === expected) noLongerDiffering.push(kase.id)
        } else if (got !== expected) {
          differing.push(
            `${kase.id}: specs ${expected}, rehearsal ${got}${await howItWent(recorded.get(kase.id))}`,
          )
        }
      }
      expect(differing).toEqual([])
      // An entry naming no bundled row (a renamed scenario) would silently exempt nothing and check nothing.
      const known = new Set(cases.map((kase) => kase.id))
      expect([...rehearsalDiffers, ...outOfReachLive].filter((id) => !known.has(id))).toEqual([])
      const architectureOf = (id: string) => ARCHITECTURES.find((each) => id.endsWith(`__${each}`))
      expect(
        [...REHEARSAL_DIFFERS, ...OUT_OF_REACH_LIVE].filter((id) => architectureOf(id) === undefined),
      ).toEqual([])
      expect(noLongerDiffering, 'the rehearsal now agrees: remove these from REHEARSAL_DIFFERS').toEqual([])
    })

    test('every replayed row equals its recording: status, checks, metrics, latencies and times', () => {
      const differing = cases.filter(
        (kase) =>
          !outOfReachLive.has(kase.id) &&
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
      expect(files.length).toBeGreaterThan(BUNDLED_ROWS_PER_ARCHITECTURE)
      for (const file of files) {
        const bytes = await readFile(join(file.parentPath, file.name))
        expect(bytes.includes(Buffer.from('BUNDLEDREPLAY')), join(file.parentPath, file.name)).toBe(false)
      }
    })
  })
  return { cases: () => cases, dir: () => dir }
}
