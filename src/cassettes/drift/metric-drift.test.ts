// Metric drift on rows built by the reporting module's own builders (the gate's test rows): the arithmetic of each
// figure written out, nulls left out, rows paired by architecture, scenario and trial.
import { describe, expect, test } from 'vitest'
import { row } from '../../gate/gate.test-helpers.ts'
import { metricDrift } from './metric-drift.ts'

const runs = (architecture: string, rows: ReturnType<typeof row>[]) => [{ architecture, rows }]

describe('metric drift', () => {
  test('the same rows: no drift, every figure equal', () => {
    const rows = [row({ id: 'a', latencyMs: 400 }), row({ id: 'b', latencyMs: 800 })]
    const drift = metricDrift(runs('responses', rows), runs('responses', rows))
    expect(drift).toMatchObject({ paired: 2, drifted: false, only_recorded: [], only_now: [] })
    expect(drift.latency_p50_ms).toMatchObject({ recorded: 400, now: 400, delta: 0, drifted: false })
    expect(drift.latency_p95_ms).toMatchObject({ recorded: 800, now: 800, delta: 0 })
  })

  test('latency p50/p95 by nearest rank, verdicts, tool arguments and delegations that changed', () => {
    const before = [
      row({ id: 'a', latencyMs: 400 }),
      row({ id: 'b', latencyMs: 600 }),
      row({ id: 'c', latencyMs: 800 }),
    ]
    const after = [
      row({ id: 'a', latencyMs: 900 }),
      row({ id: 'b', latencyMs: 1_100, status: 'failed' }),
      row({ id: 'c', latencyMs: 1_300, tools: 2 }),
    ]
    const drift = metricDrift(runs('client', before), runs('client', after))
    // p50 of [400, 600, 800] is 600, of [900, 1100, 1300] 1100: +500 ms, beyond the 250 ms tolerance.
    expect(drift.latency_p50_ms).toMatchObject({ recorded: 600, now: 1_100, delta: 500, drifted: true })
    expect(drift.latency_p95_ms).toMatchObject({ recorded: 800, now: 1_300, delta: 500 })
    expect(drift.pass).toEqual({
      recorded: 3,
      now: 2,
      changed: [{ row: 'client b', recorded: 'passed', now: 'failed' }],
    })
    expect(drift.tool_argument_changes).toEqual([
      {
        row: 'client c',
        recorded: 'create_reservation({"party_size":2})',
        now: 'create_reservation({"party_size":2}), create_reservation({"party_size":3})',
      },
    ])
    expect(drift.drifted).toBe(true)
  })

  test('unknown values are left out, infrastructure rows measure nothing, unpaired rows are listed', () => {
    const before = [row({ id: 'a', latencyMs: null }), row({ id: 'b', latencyMs: 500 }), row({ id: 'gone' })]
    const after = [
      row({ id: 'a', latencyMs: 700 }),
      row({ id: 'b', status: 'infrastructure_error' }),
      row({ id: 'new' }),
    ]
    const drift = metricDrift(runs('responses', before), runs('responses', after), {
      latencyMs: 250,
      ratio: 0.05,
    })
    // a: unknown before (left out); b: failed to run now (left out): nothing to compare.
    expect(drift.latency_p50_ms).toEqual({
      recorded: null,
      now: 700,
      delta: null,
      n: { recorded: 0, now: 1 },
      drifted: false,
    })
    expect(drift.pass.changed).toEqual([
      { row: 'responses b', recorded: 'passed', now: 'infrastructure_error' },
    ])
    expect(drift.only_recorded).toEqual(['responses gone'])
    expect(drift.only_now).toEqual(['responses new'])
    expect(drift.yield_rate.recorded).toBeNull()
  })

  test('rows pair within their architecture and trial', () => {
    const drift = metricDrift(
      [...runs('responses', [row({ id: 'a', trial: 1 }), row({ id: 'a', trial: 2 })])],
      [...runs('client', [row({ id: 'a', trial: 1 })]), ...runs('responses', [row({ id: 'a', trial: 2 })])],
    )
    expect(drift.paired).toBe(1)
    expect(drift.only_recorded).toEqual(['responses a trial 1'])
    expect(drift.only_now).toEqual(['client a trial 1'])
  })
})
