import { describe, expect, test } from 'vitest'
import { GateInputError } from './errors.ts'
import { DEFAULT_GATE_OPTIONS, evaluateGate } from './evaluate.ts'
import { gateFile, row } from './gate.test-helpers.ts'
import { voiceRow } from './metric-thresholds.test-helpers.ts'
import { metricThresholdCheck, parseMetricThreshold } from './metric-thresholds.ts'

describe('--max-metric / --min-metric', () => {
  test('parses name=value for a known row metric', () => {
    expect(parseMetricThreshold('--max-metric', 'stop_time_ms=800')).toEqual({
      metric: 'stop_time_ms',
      bound: 'max',
      value: 800,
    })
    expect(parseMetricThreshold('--min-metric', ' backchannel_selectivity = 0.5')).toEqual({
      metric: 'backchannel_selectivity',
      bound: 'min',
      value: 0.5,
    })
  })
  test('bad input names the flag and lists the metrics', () => {
    expect(() => parseMetricThreshold('--max-metric', 'stop_time=800')).toThrow(GateInputError)
    expect(() => parseMetricThreshold('--max-metric', 'stop_time=800')).toThrow(
      /--max-metric: unknown metric "stop_time"; metrics: .*stop_time_ms/,
    )
    expect(() => parseMetricThreshold('--max-metric', 'stop_time_ms')).toThrow('needs name=value')
    expect(() => parseMetricThreshold('--min-metric', 'talk_ratio=')).toThrow(
      'needs a number after "talk_ratio="',
    )
    expect(() => parseMetricThreshold('--min-metric', 'talk_ratio=abc')).toThrow('(got abc)')
  })
  test('judges the mean over the rows that measured it; a row without it is left out, not 0', () => {
    // Stop times 300 and 900 ms: mean 600. The plain row has no voice metrics and does not pull the mean to 400.
    const rows = [voiceRow('a', 300), voiceRow('b', 900), row({ id: 'c' })]
    expect(metricThresholdCheck(rows, { metric: 'stop_time_ms', bound: 'max', value: 600 })).toEqual({
      name: 'max_metric:stop_time_ms',
      outcome: 'pass',
      message:
        'stop time after a barge-in (stop_time_ms) mean 600 ms over n=2 rows is within the maximum 600 ms',
    })
    expect(metricThresholdCheck(rows, { metric: 'stop_time_ms', bound: 'max', value: 599 })).toMatchObject({
      outcome: 'fail',
      message:
        'stop time after a barge-in (stop_time_ms) mean 600 ms over n=2 rows exceeds the maximum 599 ms',
    })
  })
  test('a minimum: backchannel selectivity 1/2 and 2/2 average 0.75', () => {
    const rows = [
      voiceRow('a', 300, [{ answered: true }, { answered: false }]), // 1 ignored of 2: 0.5
      voiceRow('b', 300, [{ answered: false }, { answered: false }]), // 2 of 2: 1
    ]
    const check = (value: number) =>
      metricThresholdCheck(rows, { metric: 'backchannel_selectivity', bound: 'min', value }).outcome
    expect(check(0.75)).toBe('pass')
    expect(check(0.76)).toBe('fail')
  })
  test('inconclusive when no row measured the metric (no barge-in anywhere is not a fast stop)', () => {
    const check = metricThresholdCheck([row({ id: 'a' })], {
      metric: 'stop_time_ms',
      bound: 'max',
      value: 800,
    })
    expect(check.outcome).toBe('inconclusive')
    expect(check.message).toContain('no row measured stop time after a barge-in (stop_time_ms)')
  })
  test('the gate carries each bound as a named check and fails on one that fails', () => {
    const report = evaluateGate([gateFile([voiceRow('a', 1_200)])], [], {
      ...DEFAULT_GATE_OPTIONS,
      metricThresholds: [
        { metric: 'stop_time_ms', bound: 'max', value: 800 },
        { metric: 'talk_ratio', bound: 'max', value: 1 },
      ],
    })
    expect(report.checks.map((check) => [check.name, check.outcome])).toEqual([
      ['max_metric:stop_time_ms', 'fail'],
      // the constructed call has no caller voice: the assistant holds all the speaking time, ratio 1 <= 1
      ['max_metric:talk_ratio', 'pass'],
    ])
    expect(report.outcome).toBe('fail')
  })
})
