// The per-row metrics a report averages and a gate compares with its baseline: one table entry per metric,
// saying where its value lives in a row and which direction is better. A null value is unknown and is left out
// of every average and delta (never counted as 0).

import type { ResultItem } from './result-schema.ts'
import { type Distribution, distributionOf } from './statistics.ts'
import { VOICE_ROW_METRICS } from './voice-row-metrics.ts'

/** ms: milliseconds; ratio: a fraction or quotient; count: a number of things per row (entities, words). */
export type MetricUnit = 'ratio' | 'ms' | 'count'

export interface RowMetric {
  name: string
  label: string
  better: 'higher' | 'lower'
  unit: MetricUnit
  valueOf(row: ResultItem): number | null
}

export const ROW_METRICS: readonly RowMetric[] = [
  {
    name: 'tool_accuracy',
    label: 'tool accuracy',
    better: 'higher',
    unit: 'ratio',
    valueOf: (row) => row.metrics.task.tool_accuracy,
  },
  {
    name: 'delegation_accuracy',
    label: 'delegation accuracy',
    better: 'higher',
    unit: 'ratio',
    valueOf: (row) => row.metrics.task.delegation_accuracy,
  },
  {
    name: 'semantic_quality',
    label: 'semantic quality',
    better: 'higher',
    unit: 'ratio',
    valueOf: (row) => row.metrics.task.semantic_quality.score,
  },
  {
    name: 'response_rate',
    label: 'response rate',
    better: 'higher',
    unit: 'ratio',
    valueOf: (row) => row.metrics.audio.response_rate,
  },
  {
    name: 'response_latency_ms',
    label: 'response latency',
    better: 'lower',
    unit: 'ms',
    valueOf: (row) => row.metrics.audio.response_latency_ms,
  },
  {
    name: 'interruption_rate',
    label: 'interruption rate',
    better: 'lower',
    unit: 'ratio',
    valueOf: (row) => row.metrics.audio.interruption_rate,
  },
  {
    name: 'floor_hold_silence_ms',
    label: 'floor-hold silence',
    better: 'lower',
    unit: 'ms',
    valueOf: (row) => row.metrics.audio.floor_hold_silence_ms?.cumulative ?? null,
  },
  ...VOICE_ROW_METRICS,
]

export interface MetricSummary extends Distribution {
  metric: string
  label: string
  unit: MetricUnit
}

/**
 * Each metric's distribution over the rows that measured it. Infrastructure rows are left out: their metrics are
 * diagnostic only.
 */
export function summarizeMetrics(rows: readonly ResultItem[]): MetricSummary[] {
  const graded = rows.filter((row) => row.status !== 'infrastructure_error')
  return ROW_METRICS.map((metric) => ({
    metric: metric.name,
    label: metric.label,
    unit: metric.unit,
    ...distributionOf(
      graded.map((row) => metric.valueOf(row)).filter((value): value is number => value !== null),
    ),
  }))
}
