// The dress rehearsal's one child Vitest, shared by its readers (the shared run `rehearsal`,
// src/vitest/shared-child-run.test-helpers.ts): live-rehearsal.test.ts (the bundled CRAWL and WALK suites) and
// fault-rehearsal.test.ts (CRAWL under fault profiles) read one run of three projects (vitest.config.ts here)
// against one rehearsal server, instead of a Vitest start and a server each. Each project reads its config.toml,
// written here into the run's folder: its dataset, its concurrency, CRAWL's speech cache (one per CRAWL project,
// so the live one's cache holds only its own speech).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../../vitest/child-vitest.test-helpers.ts'

export const REHEARSAL_CONFIG = 'src/testing/rehearsal/live-fixture/vitest.config.ts'
export const CRAWL = join(ROOT, 'scenarios/crawl/restaurant.json')
export const WALK = join(ROOT, 'scenarios/walk/restaurant.json')
/** A booking, a cancellation, a clarifying question and a direct answer: in two architectures, 8 sessions at once. */
export const CRAWL_IDS = [
  'crawl_001_booking_complete_request',
  'crawl_013_cancel_authorized_r100',
  'crawl_016_clarify_missing_name',
  'crawl_020_hours',
]
/** A booking, an availability check, a cancellation and a direct answer, each under an acoustic condition. */
export const WALK_IDS = [
  'walk_001_booking_complete_request_noisy',
  'walk_009_availability_open_slot_packet_loss',
  'walk_013_cancel_authorized_r100_echo',
  'walk_020_hours_telephony',
]
/** The fault project's scenarios, each with the fault profile its tag names. */
export const FAULT_PROFILES: Record<string, string> = {
  crawl_001_booking_complete_request: 'backend-down',
  crawl_009_availability_open_slot: 'delegation-stall',
  crawl_020_hours: 'uplink-loss',
}
/** The CRAWL projects' datasets, written into the run's folder: each holds only its project's scenarios. */
export const LIVE_CRAWL_DATASET = 'live-crawl.json'
export const FAULTS_DATASET = 'faults-crawl.json'
/** The live CRAWL project's speech cache, in the run's folder. */
export const LIVE_SPEECH_CACHE = 'speech-cache'

interface BundledCrawl {
  scenarios: Array<{ id: string; tags: string[] }>
}

/** Writes the projects' datasets and config.toml files into `dir`; the run's variables. */
export function prepareRehearsalRun(dir: string): Record<string, string> {
  const bundled = JSON.parse(readFileSync(CRAWL, 'utf8')) as BundledCrawl
  const only = (ids: string[]) => bundled.scenarios.filter((scenario) => ids.includes(scenario.id))
  writeFileSync(join(dir, LIVE_CRAWL_DATASET), JSON.stringify({ ...bundled, scenarios: only(CRAWL_IDS) }))
  const faults = only(Object.keys(FAULT_PROFILES)).map((scenario) => ({
    ...scenario,
    tags: [...scenario.tags, `fault_profile:${FAULT_PROFILES[scenario.id]}`],
  }))
  writeFileSync(join(dir, FAULTS_DATASET), JSON.stringify({ ...bundled, scenarios: faults }))
  const toml = (dataset: string, concurrency: number, cache: string | null) =>
    [
      '[dataset]',
      `path = ${JSON.stringify(dataset)}`,
      '[execution]',
      `concurrency = ${concurrency}`,
      ...(cache === null ? [] : ['[audio]', `cache_dir = ${JSON.stringify(join(dir, cache))}`]),
      '',
    ].join('\n')
  writeFileSync(join(dir, 'crawl.toml'), toml(join(dir, LIVE_CRAWL_DATASET), 8, LIVE_SPEECH_CACHE))
  writeFileSync(join(dir, 'walk.toml'), toml(WALK, 8, null))
  writeFileSync(join(dir, 'crawl-faults.toml'), toml(join(dir, FAULTS_DATASET), 6, 'faults-speech'))
  return { LIVE_EVALS_MODE: 'live', REHEARSAL_CONFIG_DIR: dir }
}

/**
 * The test-name filter: WALK's scenarios out of the bundled dataset (its recordings resolve from the dataset's
 * folder, so it is not copied); the CRAWL projects' datasets hold only theirs, which it names too.
 */
export const REHEARSAL_TEST_FILTER = [
  ...new Set([...CRAWL_IDS, ...Object.keys(FAULT_PROFILES), ...WALK_IDS]),
].join('|')

/**
 * A shared run's `serve`: a rehearsal server holding `datasets`' scenarios, loaded only by the run's starter (every
 * reader of every shared run imports this module).
 */
export function rehearsalServing(
  datasets: string[],
): () => Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  return async () => {
    const { startRehearsalServer } = await import('../server.ts')
    const server = await startRehearsalServer({ datasets })
    return { env: { ...server.env }, close: () => server.close() }
  }
}

/** The rehearsal server for the run: the bundled datasets hold every scenario of the three projects. */
export const serveRehearsal = rehearsalServing([CRAWL, WALK])
