// `--max-metric name=value` and `--min-metric name=value`: a bound on any row metric (reporting/row-metrics.ts,
// the voice metrics included) by name. Decisions where the issue is silent:
// - The judged value is the metric's mean over the rows that measured it (infrastructure rows left out, as every
//   report average does), so a per-scenario figure is bounded the way a report shows it; the message gives n.
// - Both forms exist: a bound is a maximum for a lower-is-better metric (stop time) and a minimum for a
//   higher-is-better one (backchannel selectivity), and a team may want either on a two-sided one (talk ratio).
// - No row measured it: inconclusive, never a pass (unknown is not within bounds).
// - An unknown name, a missing "=" or a value that is not a finite number is bad input naming the flag and listing
//   the metric names.
import type { ResultItem } from '../reporting/result-schema.ts'
import { ROW_METRICS, type RowMetric } from '../reporting/row-metrics.ts'
import { GateInputError } from './errors.ts'
import type { GateCheck } from './evaluate.ts'
import { formatInUnit } from './format.ts'

export interface MetricThreshold {
  metric: string
  bound: 'max' | 'min'
  value: number
}

export const METRIC_THRESHOLD_FLAGS = { '--max-metric': 'max', '--min-metric': 'min' } as const

export function parseMetricThreshold(
  flag: keyof typeof METRIC_THRESHOLD_FLAGS,
  text: string,
): MetricThreshold {
  const names = ROW_METRICS.map((metric) => metric.name).join(', ')
  const [name, valueText, ...rest] = text.split('=')
  if (name === undefined || valueText === undefined || rest.length > 0 || name.trim() === '') {
    throw new GateInputError(
      flag,
      `needs name=value, e.g. ${flag} stop_time_ms=800 (got ${text}); metrics: ${names}`,
    )
  }
  const metric = name.trim()
  if (!ROW_METRICS.some((known) => known.name === metric)) {
    throw new GateInputError(flag, `unknown metric "${metric}"; metrics: ${names}`)
  }
  const value = valueText.trim() === '' ? Number.NaN : Number(valueText)
  if (!Number.isFinite(value)) {
    throw new GateInputError(
      flag,
      `needs a number after "${metric}=" (got ${valueText === '' ? 'nothing' : valueText})`,
    )
  }
  return { metric, bound: METRIC_THRESHOLD_FLAGS[flag], value }
}

function metricNamed(name: string): RowMetric {
  const metric = ROW_METRICS.find((known) => known.name === name)
  if (metric === undefined) throw new GateInputError('gate', `unknown metric "${name}"`)
  return metric
}

export function metricThresholdCheck(rows: readonly ResultItem[], threshold: MetricThreshold): GateCheck {
  const metric = metricNamed(threshold.metric)
  const name = `${threshold.bound}_metric:${metric.name}`
  const values = rows
    .filter((row) => row.status !== 'infrastructure_error')
    .map((row) => metric.valueOf(row))
    .filter((value): value is number => value !== null)
  const limit = formatInUnit(metric.unit, threshold.value)
  if (values.length === 0) {
    return {
      name,
      outcome: 'inconclusive',
      message: `no row measured ${metric.label} (${metric.name}), so it cannot be held to ${threshold.bound} ${limit}`,
    }
  }
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  const ok = threshold.bound === 'max' ? mean <= threshold.value : mean >= threshold.value
  const relation = ok
    ? threshold.bound === 'max'
      ? 'is within the maximum'
      : 'meets the minimum'
    : threshold.bound === 'max'
      ? 'exceeds the maximum'
      : 'is below the minimum'
  return {
    name,
    outcome: ok ? 'pass' : 'fail',
    message: `${metric.label} (${metric.name}) mean ${formatInUnit(metric.unit, mean)} over n=${values.length} rows ${relation} ${limit}`,
  }
}
