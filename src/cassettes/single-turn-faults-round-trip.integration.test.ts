// A CRAWL scenario under a fault profile, recorded live against the dress-rehearsal server in real time, replays
// from its cassette to the same row, in both architectures. A fault holds a tool's output back on the session's
// media clock in every mode, what it releases runs before the next frame, and a replayed frame whose round trips
// delivered events lets what they start on a later tick (a tool) start before it, as live. Before, a wait that
// ended on the wall clock (or a tool the replay started frames late) let the held output out between other frames
// than its replay did: 10 of these 12 rows (two copies each) diverged there ("was not sent before the next audio
// frame"), and crawl_011 under Responses delegation still did with the fault clock alone.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { startRehearsalServer } from '../testing/rehearsal/index.ts'
import {
  BUNDLED_DATASETS,
  type BundledCase,
  bundledCases,
  bundledSettings,
  bundledToml,
  executeCase,
  rehearsalRecordingEnv,
} from './bundled-executions.test-helpers.ts'
import { replayedRow } from './comparable-row.test-helpers.ts'

/** Bundled CRAWL scenarios and the fault profile each is tagged with here: a slow tool twice, a timed-out booking. */
const FAULTED: Readonly<Record<string, string>> = {
  crawl_001_booking_complete_request: 'tool-timeout',
  crawl_009_availability_open_slot: 'tool-slow',
  crawl_011_availability_patio: 'tool-slow',
}
const FAULT_KINDS: Readonly<Record<string, string>> = { 'tool-timeout': 'timeout', 'tool-slow': 'slow' }
const SETUP_TIMEOUT_MS = 240_000

let dir = ''
let cases: BundledCase[] = []
const recorded = new Map<string, ScenarioExecution>()
const replayed = new Map<string, ScenarioExecution>()
const previousBaseURL = process.env.OPENAI_BASE_URL

const cassetteOf = (row: ResultItem): CassetteRowExtension | undefined =>
  (row.observability?.live_evals as { cassette?: CassetteRowExtension } | undefined)?.cassette

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-crawl-faults-'))
  // The bundled scenarios, each tagged with its profile (the rehearsal knows their speech by its content).
  const source = JSON.parse(await readFile(BUNDLED_DATASETS.crawl[0] as string, 'utf8')) as {
    scenarios: { id: string; tags: string[] }[]
  }
  source.scenarios = source.scenarios.filter((scenario) => scenario.id in FAULTED)
  for (const scenario of source.scenarios) scenario.tags.push(`fault_profile:${FAULTED[scenario.id]}`)
  const dataset = join(dir, 'faulted.json')
  await writeFile(dataset, JSON.stringify(source))
  cases = (await bundledCases(['crawl']))
    .filter((kase) => kase.scenario.id in FAULTED)
    .map((kase) => ({
      ...kase,
      dataset,
      scenario: {
        ...kase.scenario,
        tags: [...kase.scenario.tags, `fault_profile:${FAULTED[kase.scenario.id]}`],
      },
    }))
  const settingsFor = (env: Record<string, string>) =>
    bundledSettings('crawl', dataset, env, bundledToml('crawl', join(dir, 'cassettes')))
  const server = await startRehearsalServer({ datasets: BUNDLED_DATASETS.crawl })
  process.env.OPENAI_BASE_URL = server.baseURL
  try {
    const live = await settingsFor(rehearsalRecordingEnv(server, 'sk-test-CRAWLFAULTS-key'))
    await Promise.all(
      cases.map(async (kase) => {
        recorded.set(kase.id, await executeCase(kase, live, join(dir, 'recorded', kase.architecture)))
      }),
    )
  } finally {
    await server.close()
  }
  const replay = await settingsFor({ LIVE_EVALS_MODE: 'replay' })
  for (const kase of cases) {
    replayed.set(kase.id, await executeCase(kase, replay, join(dir, 'replayed', kase.architecture)))
  }
}, SETUP_TIMEOUT_MS)

afterAll(async () => {
  if (previousBaseURL === undefined) delete process.env.OPENAI_BASE_URL
  else process.env.OPENAI_BASE_URL = previousBaseURL
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

test('each faulted CRAWL recording had its fault injected and replays to the same row, in both architectures', () => {
  expect(cases).toHaveLength(2 * Object.keys(FAULTED).length)
  for (const kase of cases) {
    const live = recorded.get(kase.id)?.row as ResultItem
    expect(live.status, `${kase.id}: ${JSON.stringify(live.error)}`).not.toBe('infrastructure_error')
    const injected = (live.observability?.live_evals?.faults as { injected?: { kind: string }[] } | undefined)
      ?.injected
    expect(
      injected?.map((fault) => fault.kind),
      kase.id,
    ).toContain(FAULT_KINDS[FAULTED[kase.scenario.id] as string])
    const again = replayed.get(kase.id)?.row as ResultItem
    const why = `${kase.id}: ${cassetteOf(again)?.first_divergence?.text ?? again.error?.message}`
    expect(cassetteOf(again), why).toMatchObject({ mode: 'replay', outcome: 'replayed', divergence_count: 0 })
    expect(replayedRow(again), why).toEqual(replayedRow(live))
  }
})
