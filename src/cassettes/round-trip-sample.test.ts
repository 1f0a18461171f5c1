import { describe, expect, test } from 'vitest'
import { FAULT_EXPECTED_FAILURES } from '../../specs/run/faults.expected-failures.ts'
import { ARCHITECTURES, bundledCases } from './bundled-executions.test-helpers.ts'
import {
  ROUND_TRIP_ROWS,
  ROUND_TRIP_SAMPLE,
  ROUND_TRIP_SCENARIOS,
  roundTripCases,
  roundTripScope,
} from './round-trip-sample.test-helpers.ts'

describe("the bundled round trip's rows", () => {
  test('ROUND_TRIP_ROWS=all asks for every row, sample or nothing for the sample; anything else is refused by name', () => {
    expect(roundTripScope({ [ROUND_TRIP_ROWS]: 'all' })).toBe('all')
    expect(roundTripScope({ [ROUND_TRIP_ROWS]: 'sample' })).toBe('sample')
    expect(roundTripScope({ [ROUND_TRIP_ROWS]: '' })).toBe('sample')
    expect(roundTripScope({})).toBe('sample')
    expect(() => roundTripScope({ [ROUND_TRIP_ROWS]: 'al' })).toThrow(/^ROUND_TRIP_ROWS=al: give "all"/)
  })

  test('the sample is its scenarios and every declared failure, in both architectures, from every phase and RUN dataset', async () => {
    const all = await bundledCases(['crawl', 'walk', 'run'])
    const sample = roundTripCases(all, 'sample')
    for (const failure of FAULT_EXPECTED_FAILURES) expect(ROUND_TRIP_SCENARIOS).toContain(failure.scenario)
    for (const id of ROUND_TRIP_SAMPLE) expect(ROUND_TRIP_SCENARIOS).toContain(id)
    expect(sample).toHaveLength(ARCHITECTURES.length * ROUND_TRIP_SCENARIOS.size)
    expect(new Set(sample.map((kase) => kase.scenario.id))).toEqual(ROUND_TRIP_SCENARIOS)
    expect(new Set(sample.map((kase) => kase.architecture))).toEqual(new Set(['responses', 'client']))
    expect(new Set(sample.map((kase) => kase.dataset))).toEqual(new Set(all.map((kase) => kase.dataset)))
    expect(roundTripCases(all, 'all')).toEqual(all)
  })

  test('a sampled scenario no bundled dataset holds is refused by name, not dropped', async () => {
    const all = await bundledCases(['crawl', 'walk', 'run'])
    const withoutOne = all.filter((kase) => kase.scenario.id !== 'run_013_barge_in_yield')
    expect(() => roundTripCases(withoutOne, 'sample')).toThrow(
      /no bundled dataset holds: run_013_barge_in_yield$/,
    )
  })
})
