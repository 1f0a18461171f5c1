// Cost per scenario and per run, computed by hand: voice minutes from the billed session seconds, backend tokens
// from the row's consumption, judge tokens from the details' usage events, priced by a table; unknown usage or
// price is a null cost, never 0; standby is null on WebSocket sessions.
import { describe, expect, it } from 'vitest'
import { DEFAULT_PRICES, type PriceTable } from '../config/prices.ts'
import { costContextOf, runCost, scenarioCost } from './cost.ts'
import { passingRowInput } from './reporting-fixtures.ts'
import { buildResultRow } from './result-item.ts'
import type { Consumption } from './result-schema.ts'

const PRICES: PriceTable = {
  ...DEFAULT_PRICES,
  tokens_per_million: {
    'backend-model': { input: 2, cached_input: 0.5, output: 10 },
    'judge-model': { input: 1, cached_input: null, output: 4 },
  },
}

const rowWith = (consumption: Consumption, delegations = '1/1') =>
  buildResultRow(
    passingRowInput({
      consumption,
      evidence: { tool_accuracy: 1, delegation_accuracy: 1, tool_calls: '1/1', delegations, turns: '2/2' },
    }),
  )

const judgeEvent = (input: number | null, output: number | null, cached = 0) => ({
  source: 'evaluation_judge',
  purpose: 'evaluation_judge/task_understanding',
  model: 'judge-model',
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: output,
})

const context = (model: string, prices = PRICES) =>
  costContextOf({ model, backend_model: 'backend-model' }, prices)

describe('scenarioCost', () => {
  it('prices voice minutes, backend and judge tokens, and totals them', () => {
    const row = rowWith({
      frontend: { audio_duration_ms: 90_000 },
      backend: { input: { total_tokens: 1_000, cached_tokens: 200 }, output: { total_tokens: 300 } },
    })
    const cost = scenarioCost(row, [judgeEvent(2_000, 500)], context('gpt-live-1.1'))
    // 1.5 min × $0.05 = 0.075; backend (800 × 2 + 200 × 0.5 + 300 × 10) / 1e6 = 0.0047; judge (2000 + 500 × 4) / 1e6.
    expect(cost.voice_active_minutes).toBe(1.5)
    expect(cost.voice_standby_minutes).toBeNull()
    expect(cost.voice_cost).toBeCloseTo(0.075, 12)
    expect(cost.backend).toEqual({ tokens: { input: 1_000, cached_input: 200, output: 300 }, cost: 0.0047 })
    expect(cost.judge.tokens).toEqual({ input: 2_000, cached_input: 0, output: 500 })
    expect(cost.judge.cost).toBeCloseTo(0.004, 12)
    expect(cost.total_cost).toBeCloseTo(0.075 + 0.0047 + 0.004, 12)
  })

  it('prices a dated snapshot as its model', () => {
    const row = rowWith({ frontend: { audio_duration_ms: 60_000 }, backend: {} }, '0/0')
    expect(scenarioCost(row, [], context('gpt-live-1.1-2026-11-20')).voice_cost).toBeCloseTo(0.05, 12)
  })

  it('gives null, never 0, for an unknown price, unknown usage or unreadable details', () => {
    const used = rowWith({
      frontend: { audio_duration_ms: 30_000 },
      backend: { input: { total_tokens: 10 }, output: { total_tokens: 5 } },
    })
    const noPrices = scenarioCost(used, [judgeEvent(10, 10)], context('gpt-live-9', DEFAULT_PRICES))
    expect(noPrices.voice_cost).toBeNull()
    expect(noPrices.backend.cost).toBeNull()
    expect(noPrices.judge.cost).toBeNull()
    expect(noPrices.total_cost).toBeNull()
    // A delegation whose usage was never reported: tokens unknown.
    const unreported = scenarioCost(rowWith({ frontend: {}, backend: {} }), null, context('gpt-live-1'))
    expect(unreported.voice_active_minutes).toBeNull()
    expect(unreported.backend).toEqual({ tokens: null, cost: null })
    expect(unreported.judge).toEqual({ tokens: null, cost: null })
    // A judge event without counts, and cached input at a price the table does not know.
    const judged = scenarioCost(used, [judgeEvent(10, null)], context('gpt-live-1'))
    expect(judged.judge).toEqual({ tokens: null, cost: null })
    expect(scenarioCost(used, [judgeEvent(10, 10, 4)], context('gpt-live-1')).judge.cost).toBeNull()
  })

  it('costs measured zero usage 0 whatever the prices: no delegation, no judge', () => {
    const row = rowWith({ frontend: { audio_duration_ms: 0 }, backend: {} }, '0/0')
    const cost = scenarioCost(row, [], context('gpt-live-9', DEFAULT_PRICES))
    expect(cost).toMatchObject({ voice_cost: 0, backend: { cost: 0 }, judge: { cost: 0 }, total_cost: 0 })
  })
})

describe('runCost', () => {
  it('sums each figure over the scenarios and is null when any scenario is unknown', () => {
    const a = scenarioCost(
      rowWith({ frontend: { audio_duration_ms: 60_000 }, backend: {} }, '0/0'),
      [],
      context('gpt-live-1'),
    )
    const b = scenarioCost(
      rowWith({ frontend: { audio_duration_ms: 120_000 }, backend: {} }, '0/0'),
      [],
      context('gpt-live-1'),
    )
    const total = runCost([a, b])
    expect(total.voice_active_minutes).toBe(3)
    expect(total.voice_cost).toBeCloseTo(0.15, 12)
    expect(total.total_cost).toBeCloseTo(0.15, 12)
    expect(total.voice_standby_minutes).toBeNull()
    const unknown = scenarioCost(rowWith({ frontend: {}, backend: {} }), null, context('gpt-live-1'))
    expect(runCost([a, unknown]).total_cost).toBeNull()
    expect(runCost([a, unknown]).voice_active_minutes).toBeNull()
  })
})
