// Which bundled rows the bundled round trip (bundled-round-trip.integration.test.ts) records and replays. Recording
// is real time: every bundled row is some 3,500 call-seconds, about six minutes of wall time inside a full unit run
// (four to five alone), where the rest of the unit run takes about as long. So the unit run (`npm test`) takes a fixed
// sample that touches every path a bundled row can take through recording and replay, and `npm run test:round-trip`
// (ROUND_TRIP_ROWS=all; CI runs it after `npm test`) takes every row.
import { FAULT_EXPECTED_FAILURES } from '../../specs/run/faults.expected-failures.ts'
import type { BundledCase } from './bundled-executions.test-helpers.ts'

/** The variable that asks for every bundled row (`all`) or the sample (`sample`, or unset). */
export const ROUND_TRIP_ROWS = 'ROUND_TRIP_ROWS'

/**
 * The sample, in both architectures, besides every scenario the specs declare to fail (ROUND_TRIP_SCENARIOS adds
 * them: the round trip holds each recorded verdict to the declared one). Each scenario stands for a path of its own:
 * - CRAWL: a booking made by a tool call; a refusal (no tool may run).
 * - WALK: the three lossy or filtered presets (the phone line, dropped packets, the whole realistic chain).
 * - RUN: a clarification (and the strict-replay divergence tests' call), a barge-in, a delegation, the
 *   reference-style caller.
 * - Faults: a rule live mode cannot carry out in the Responses architecture (refused at input_setup), a transport
 *   cut; and the declared failures (specs/run/faults.expected-failures.ts: a timeout, wrong data).
 */
export const ROUND_TRIP_SAMPLE: readonly string[] = [
  'crawl_001_booking_complete_request',
  'crawl_022_refuse_unauthorized_cancel',
  'walk_003_booking_corrected_date_telephony',
  'walk_009_availability_open_slot_packet_loss',
  'walk_020_hours_realistic',
  'run_002_booking_missing_name',
  'run_013_barge_in_yield',
  'run_014_availability_delegated',
  'ref_008_cancel_unauthorized_pressure',
  'run_fault_007_booking_delegation_stall',
  'run_fault_009_booking_stream_cut',
]

/** The sample's scenarios: ROUND_TRIP_SAMPLE and every scenario with a declared failure. */
export const ROUND_TRIP_SCENARIOS: ReadonlySet<string> = new Set([
  ...ROUND_TRIP_SAMPLE,
  ...FAULT_EXPECTED_FAILURES.map((failure) => failure.scenario),
])

export type RoundTripScope = 'all' | 'sample'

/** The scope ROUND_TRIP_ROWS asks for; any other value throws, naming it, rather than quietly run the sample. */
export function roundTripScope(env: NodeJS.ProcessEnv = process.env): RoundTripScope {
  const value = env[ROUND_TRIP_ROWS]
  if (value === undefined || value === '' || value === 'sample') return 'sample'
  if (value === 'all') return 'all'
  throw new Error(
    `${ROUND_TRIP_ROWS}=${value}: give "all" (every bundled row) or "sample" (the unit run's sample)`,
  )
}

/**
 * The rows of `scope` from every bundled row. A sampled scenario that no bundled dataset holds any more (renamed,
 * removed) throws, naming it: the sample must not shrink without anyone noticing.
 */
export function roundTripCases(all: readonly BundledCase[], scope: RoundTripScope): BundledCase[] {
  if (scope === 'all') return [...all]
  const known = new Set(all.map((kase) => kase.scenario.id))
  const missing = [...ROUND_TRIP_SCENARIOS].filter((id) => !known.has(id))
  if (missing.length > 0) {
    throw new Error(`The round trip's sample names scenarios no bundled dataset holds: ${missing.join(', ')}`)
  }
  return all.filter((kase) => ROUND_TRIP_SCENARIOS.has(kase.scenario.id))
}
