import { describe, expect, test } from 'vitest'
import { row } from '../gate/gate.test-helpers.ts'
import { conditionOf, summarizeConditionRobustness } from './condition-robustness.ts'
import type { ResultItem } from './result-schema.ts'

/** A WALK row: its recording echoes the condition and the scenario the recording was made from. */
function recorded(
  id: string,
  source: string,
  condition: string,
  passed: boolean | 'not_run' = true,
  trial?: number,
): ResultItem {
  const status = passed === 'not_run' ? 'infrastructure_error' : passed ? 'passed' : 'failed'
  return {
    ...row({ id, status, ...(trial === undefined ? {} : { trial }) }),
    recording: {
      id: 'caller_recording',
      path: `audio/${id}.wav`,
      condition,
      metadata: { generation: { source: 'synthetic_speech', source_scenario_id: source } },
    },
  }
}

describe('condition robustness', () => {
  test('a source scenario is robust only if it passed under every condition it ran with', () => {
    const summary = summarizeConditionRobustness([
      recorded('walk_001_clean', 'crawl_001', 'clean'),
      recorded('walk_001_phone', 'crawl_001', 'phone'),
      recorded('walk_001_noisy', 'crawl_001', 'noisy'),
      recorded('walk_003_clean', 'crawl_003', 'clean'),
      recorded('walk_003_noisy', 'crawl_003', 'noisy', false),
    ])
    expect(summary).toMatchObject({
      sources: 2,
      robust: 1,
      robust_rate: 0.5,
      conditions: ['clean', 'phone', 'noisy'],
    })
    expect(summary?.scenarios.map((scenario) => [scenario.source_scenario_id, scenario.robust])).toEqual([
      ['crawl_001', true],
      ['crawl_003', false],
    ])
    expect(summary?.scenarios[1]?.failed_conditions).toEqual(['noisy'])
    expect(summary?.scenarios[1]?.conditions).toEqual([
      { condition: 'clean', scenario_id: 'walk_003_clean', rows: 1, passed: 1, not_run: 0 },
      { condition: 'noisy', scenario_id: 'walk_003_noisy', rows: 1, passed: 0, not_run: 0 },
    ])
  })

  test('with trials, one failed trial under one condition makes the scenario not robust', () => {
    const summary = summarizeConditionRobustness([
      recorded('w_clean', 'src', 'clean', true, 1),
      recorded('w_clean', 'src', 'clean', true, 2),
      recorded('w_phone', 'src', 'phone', true, 1),
      recorded('w_phone', 'src', 'phone', false, 2),
    ])
    expect(summary?.robust).toBe(0)
    expect(summary?.scenarios[0]?.conditions).toEqual([
      { condition: 'clean', scenario_id: 'w_clean', rows: 2, passed: 2, not_run: 0 },
      { condition: 'phone', scenario_id: 'w_phone', rows: 2, passed: 1, not_run: 0 },
    ])
  })

  test('a source with a row that did not run is unknown, not robust, and left out of the rate', () => {
    // Two of walk_001's four recordings never ran (a missing WAV, a file that is not a WAV).
    const summary = summarizeConditionRobustness([
      recorded('walk_001_clean', 'crawl_001', 'clean'),
      recorded('walk_001_speech', 'crawl_001', 'background_speech'),
      recorded('walk_001_noisy', 'crawl_001', 'noisy', 'not_run'),
      recorded('walk_001_phone', 'crawl_001', 'telephony', 'not_run'),
      recorded('walk_003_clean', 'crawl_003', 'clean'),
      recorded('walk_003_noisy', 'crawl_003', 'noisy'),
    ])
    expect(summary).toMatchObject({ sources: 2, robust: 1, unknown: 1, robust_rate: 1 })
    expect(summary?.scenarios[0]).toMatchObject({
      source_scenario_id: 'crawl_001',
      robust: null,
      failed_conditions: [],
      not_run_conditions: ['noisy', 'telephony'],
    })
    expect(summary?.scenarios[0]?.conditions[2]).toEqual({
      condition: 'noisy',
      scenario_id: 'walk_001_noisy',
      rows: 1,
      passed: 0,
      not_run: 1,
    })
  })

  test('a row that failed outweighs one that did not run; with no source known the rate is unknown', () => {
    const failed = summarizeConditionRobustness([
      recorded('w_clean', 'src', 'clean', false),
      recorded('w_noisy', 'src', 'noisy', 'not_run'),
    ])
    expect(failed).toMatchObject({ robust: 0, unknown: 0, robust_rate: 0 })
    expect(failed?.scenarios[0]).toMatchObject({ robust: false, failed_conditions: ['clean'] })
    const unknown = summarizeConditionRobustness([
      recorded('w_clean', 'src', 'clean'),
      recorded('w_noisy', 'src', 'noisy', 'not_run'),
    ])
    expect(unknown).toMatchObject({ sources: 1, robust: 0, unknown: 1, robust_rate: null })
  })

  test('nothing to say without recordings, or with one condition per scenario', () => {
    expect(summarizeConditionRobustness([row({ id: 'crawl_only' })])).toBeNull()
    expect(
      summarizeConditionRobustness([recorded('a', 'x', 'clean'), recorded('b', 'y', 'noisy', false)]),
    ).toBeNull()
  })

  test('a recording without generation metadata is its own source; without a condition it is "unknown"', () => {
    const bare = { ...row({ id: 'walk_x' }), recording: { id: 'r', path: 'a.wav' } }
    expect(conditionOf(bare)).toEqual({ source_scenario_id: 'walk_x', condition: 'unknown' })
    expect(conditionOf(row({ id: 'crawl' }))).toBeNull()
  })
})
