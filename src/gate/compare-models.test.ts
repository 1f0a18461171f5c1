// Two models on the same four scenarios, every figure computed by hand: gpt-live-1 passes all four at 400–700 ms,
// gpt-live-1.1 passes two at 300–600 ms. The pass rate delta is -50 points with Newcombe's interval, the latency
// percentiles move by -100 ms, the verdict changes are named, and the gate's model checks fail, pass or stay
// inconclusive by the threshold and by whether the interval is judged.
import { describe, expect, test } from 'vitest'
import { DEFAULT_PRICES } from '../config/prices.ts'
import { compareModels } from './compare-models.ts'
import { GateInputError } from './errors.ts'
import { DEFAULT_GATE_OPTIONS, evaluateGate } from './evaluate.ts'
import { row } from './gate.test-helpers.ts'
import { modelChecks, withModelChecks } from './model-checks.ts'
import { modelFile } from './models.test-helpers.ts'

const reference = modelFile('gpt-live-1', [
  row({ id: 'a', latencyMs: 400 }),
  row({ id: 'b', latencyMs: 500 }),
  row({ id: 'c', latencyMs: 600 }),
  row({ id: 'd', latencyMs: 700 }),
])
const candidate = modelFile('gpt-live-1.1', [
  row({ id: 'a', latencyMs: 300 }),
  row({ id: 'b', latencyMs: 400 }),
  row({ id: 'c', latencyMs: 500, status: 'failed' }),
  row({ id: 'd', latencyMs: 600, status: 'failed' }),
])
const comparison = compareModels([reference, candidate], { prices: DEFAULT_PRICES })
const metric = (name: string) => comparison.candidates[0]?.metrics.find((item) => item.name === name)

describe('compareModels', () => {
  test('compares the second model with the first, pairing rows by scenario', () => {
    expect(comparison.reference).toBe('gpt-live-1')
    expect(comparison.models.map((model) => [model.model, model.pass_rate.successes, model.rows])).toEqual([
      ['gpt-live-1', 4, 4],
      ['gpt-live-1.1', 2, 4],
    ])
    expect(comparison.candidates[0]?.unpaired).toEqual([])
  })

  test("the pass rate delta with Newcombe's 95% interval", () => {
    const rate = metric('pass_rate')
    expect(rate).toMatchObject({ reference_value: 1, candidate_value: 0.5, delta: -0.5, reference_n: 4 })
    expect(rate?.lower).toBeCloseTo(-0.849961, 5)
    expect(rate?.upper).toBeCloseTo(0.102051, 5)
  })

  test('latency P50 and P95 by nearest rank, each 100 ms lower, with a bootstrap interval around it', () => {
    expect(metric('response_latency_p50_ms')).toMatchObject({
      reference_value: 500,
      candidate_value: 400,
      delta: -100,
    })
    const p95 = metric('response_latency_p95_ms')
    expect(p95).toMatchObject({ reference_value: 700, candidate_value: 600, delta: -100 })
    expect(p95?.lower).toBeLessThanOrEqual(-100)
    expect(p95?.upper).toBeGreaterThanOrEqual(-100)
    // Seeded: the same results give the same interval.
    const again = compareModels([reference, candidate], { prices: DEFAULT_PRICES })
    expect(again.candidates[0]?.metrics).toEqual(comparison.candidates[0]?.metrics)
  })

  test('a metric both models measured the same has a zero delta; one neither measured is unknown', () => {
    expect(metric('tool_accuracy')).toMatchObject({ delta: 0, lower: 0, upper: 0, candidate_n: 4 })
    expect(metric('yield_rate')).toMatchObject({ delta: null, lower: null, upper: null, candidate_n: 0 })
  })

  test('names the scenarios whose verdict changed', () => {
    expect(
      comparison.candidates[0]?.verdict_changes.map((change) => [
        change.description,
        change.reference,
        change.candidate,
      ]),
    ).toEqual([
      ['crawl/responses c', 'passed', 'failed'],
      ['crawl/responses d', 'passed', 'failed'],
    ])
  })

  test('voice cost per scenario and per model from the billed seconds (9 s a row at $0.05/min)', () => {
    expect(comparison.scenarios).toHaveLength(4)
    expect(comparison.scenarios[0]?.costs.map((cost) => cost?.voice_cost)).toEqual([0.0075, 0.0075])
    expect(comparison.models[1]?.cost.voice_active_minutes).toBeCloseTo(0.6, 12)
    expect(comparison.prices.read_on).toBe('2026-12-02')
  })

  test('refuses one model, or a reference the files do not hold', () => {
    expect(() => compareModels([reference], { prices: DEFAULT_PRICES })).toThrow(GateInputError)
    expect(() =>
      compareModels([reference, candidate], { prices: DEFAULT_PRICES, reference: 'gpt-live-2' }),
    ).toThrow(/gpt-live-2 is not among/)
  })
})

describe('the gate on a per-model delta', () => {
  const options = { maxPassRateDrop: 0.05, maxP95LatencyIncreaseMs: 0, useInterval: false }

  test('fails when a model drops more than the limit, naming it and the changed verdicts', () => {
    const [drop, latency] = modelChecks(comparison, options)
    expect(drop).toMatchObject({ name: 'max_pass_rate_drop:gpt-live-1.1', outcome: 'fail' })
    expect(drop?.message).toContain('delta -50.0 points [-85.0 points, +10.2 points]')
    expect(drop?.message).toContain('crawl/responses c passed→failed')
    expect(latency).toMatchObject({ name: 'max_p95_latency_increase_ms:gpt-live-1.1', outcome: 'pass' })
    const report = withModelChecks(
      evaluateGate([reference, candidate], [], DEFAULT_GATE_OPTIONS),
      [drop, latency].flatMap((check) => (check ? [check] : [])),
    )
    expect(report.outcome).toBe('fail')
  })

  test('passes within a wider limit, and is inconclusive when the interval straddles the limit', () => {
    expect(modelChecks(comparison, { ...options, maxPassRateDrop: 0.6 })[0]?.outcome).toBe('pass')
    expect(modelChecks(comparison, { ...options, useInterval: true })[0]?.outcome).toBe('inconclusive')
    expect(modelChecks(comparison, { ...options, maxPassRateDrop: 0.9, useInterval: true })[0]?.outcome).toBe(
      'pass',
    )
  })

  test("the gate keys rows by model too: two models' files of one dataset are not duplicates", () => {
    const report = evaluateGate([reference, candidate], [], DEFAULT_GATE_OPTIONS)
    expect(report.checks.map((check) => check.name)).not.toContain('duplicate_rows')
    expect(report.pass_rate).toMatchObject({ successes: 6, n: 8 })
  })
})
