// The budget: whole scenarios admitted in order while they fit under the cap, the rest named; the live estimate
// prices each re-run like the failed row it repeats, and an unknown price or usage leaves the total unknown.
import { describe, expect, test } from 'vitest'
import { DEFAULT_PRICES, type PriceTable } from '../config/prices.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { budget, costEstimate, type ScenarioPlan } from './plan.ts'
import type { FailedScenario, SourceRun } from './source-run.ts'

function row(audioMs: number | null, tokens: { input: number; output: number } | null): ResultItem {
  return {
    scenario_id: 's',
    status: 'failed',
    metrics: {
      task: { task_completed: false, delegations: { actual: tokens === null ? 0 : 1, expected: 1 } },
      audio: {},
      consumption: {
        frontend: { audio_duration_ms: audioMs },
        backend:
          tokens === null
            ? {}
            : { input: { total_tokens: tokens.input }, output: { total_tokens: tokens.output } },
      },
    },
  } as unknown as ResultItem
}

function plan(
  id: string,
  reruns: number,
  failedRow: ResultItem,
  details: Record<string, unknown> = {},
): ScenarioPlan {
  return {
    failed: { scenarioId: id, failedRow, details } as FailedScenario,
    facts: {} as ScenarioPlan['facts'],
    arms: [],
    notApplicable: [],
    reruns,
  }
}

const RUN = {
  document: { run: { configuration: { model: 'gpt-live-1', backend_model: 'gpt-5.6-terra' } } },
} as unknown as SourceRun

describe('budget', () => {
  test('admits whole scenarios in order until one does not fit, and names the rest', () => {
    const plans = [plan('a', 10, row(0, null)), plan('b', 15, row(0, null)), plan('c', 5, row(0, null))]
    const result = budget(plans, 20)
    expect(result.admitted.map((entry) => entry.failed.scenarioId)).toEqual(['a'])
    expect(result.over.map((entry) => entry.failed.scenarioId)).toEqual(['b', 'c'])
    expect(result).toMatchObject({ planned: 30, admittedReruns: 10 })
    expect(budget(plans, 30).over).toEqual([])
  })
})

describe('costEstimate', () => {
  test('offline is free', () => {
    const estimate = costEstimate(
      RUN,
      budget([plan('a', 10, row(60_000, null))], 100),
      'offline',
      DEFAULT_PRICES,
    )
    expect(estimate).toMatchObject({ cost: 0, voice_minutes: 0 })
    expect(estimate.note).toMatch(/free/)
  })

  test('live: voice minutes × re-runs × the price; a row that never delegated spent no tokens', () => {
    // 30 s of audio at $0.05/min, 10 re-runs: 5 minutes, $0.25.
    const estimate = costEstimate(
      RUN,
      budget([plan('a', 10, row(30_000, null))], 100),
      'live',
      DEFAULT_PRICES,
    )
    expect(estimate.voice_minutes).toBeCloseTo(5, 9)
    expect(estimate.cost).toBeCloseTo(0.25, 9)
  })

  test('live: backend tokens without a price make the total unknown (null), never 0', () => {
    const estimate = costEstimate(
      RUN,
      budget([plan('a', 4, row(30_000, { input: 1000, output: 50 }))], 100),
      'live',
      DEFAULT_PRICES,
    )
    expect(estimate.cost).toBeNull()
    expect(estimate.voice_minutes).toBeCloseTo(2, 9)
    expect(estimate.note).toMatch(/unknown/)
    const priced: PriceTable = {
      ...DEFAULT_PRICES,
      tokens_per_million: { 'gpt-5.6-terra': { input: 1, cached_input: 0.1, output: 10 } },
    }
    // Per re-run: 0.5 min × 0.05 + (1000 × 1 + 50 × 10) / 1e6 = 0.025 + 0.0015.
    const known = costEstimate(
      RUN,
      budget([plan('a', 4, row(30_000, { input: 1000, output: 50 }))], 100),
      'live',
      priced,
    )
    expect(known.cost).toBeCloseTo(4 * 0.0265, 9)
  })

  test('live RUN: the simulated caller’s session is priced too', () => {
    const estimate = costEstimate(
      RUN,
      budget([plan('a', 2, row(60_000, null), { caller: { audio_duration_ms: 30_000 } })], 100),
      'live',
      DEFAULT_PRICES,
    )
    expect(estimate.voice_minutes).toBeCloseTo(3, 9)
    expect(estimate.cost).toBeCloseTo(0.15, 9)
    // Replayed from its cassette (replay.caller), the caller holds no session: only the assistant's is priced.
    const replayed = plan('a', 2, row(60_000, null), { caller: { audio_duration_ms: 30_000 } })
    replayed.facts = { ...replayed.facts, callerReplayed: 'cassettes/run' }
    expect(costEstimate(RUN, budget([replayed], 100), 'live', DEFAULT_PRICES).voice_minutes).toBeCloseTo(2, 9)
  })
})
