// The comparison with an approved baseline, row by row on the gate key: which scenarios regressed (passed in the
// baseline, not now) or recovered, which baseline rows are missing, and each metric's paired delta with the
// counts that improved and regressed.

import { ROW_METRICS, type RowMetric } from '../reporting/row-metrics.ts'
import { meanOf } from '../reporting/statistics.ts'
import type { GateRowKey } from './row-keys.ts'
import type { KeyedRows } from './rows.ts'

export interface MetricDelta {
  metric: string
  label: string
  unit: RowMetric['unit']
  better: RowMetric['better']
  /** Rows measured in both runs. */
  n: number
  baseline_mean: number | null
  current_mean: number | null
  /** current_mean - baseline_mean over the paired rows; null when none. */
  delta: number | null
  improved: number
  regressed: number
  unchanged: number
}

export interface BaselineComparison {
  regressed: GateRowKey[]
  recovered: GateRowKey[]
  /** In the baseline, absent now: never a pass. */
  missing: GateRowKey[]
  /** New rows the baseline does not have (reported, not judged). */
  added: GateRowKey[]
  metrics: MetricDelta[]
}

export function compareWithBaseline(current: KeyedRows, baseline: KeyedRows): BaselineComparison {
  const regressed: GateRowKey[] = []
  const recovered: GateRowKey[] = []
  const missing: GateRowKey[] = []
  const pairs: { before: KeyedRows['rows'][number]; after: KeyedRows['rows'][number] }[] = []
  for (const [text, before] of baseline.byKey) {
    const after = current.byKey.get(text)
    if (after === undefined) {
      missing.push(before.key)
      continue
    }
    pairs.push({ before, after })
    const passedBefore = before.row.status === 'passed'
    const passedAfter = after.row.status === 'passed'
    if (passedBefore && !passedAfter) regressed.push(after.key)
    if (!passedBefore && passedAfter) recovered.push(after.key)
  }
  const added = [...current.byKey].filter(([text]) => !baseline.byKey.has(text)).map(([, row]) => row.key)
  const metrics = ROW_METRICS.map((metric): MetricDelta => {
    const paired = pairs.flatMap(({ before, after }) => {
      // Infrastructure rows measured nothing trustworthy on either side.
      if (before.row.status === 'infrastructure_error' || after.row.status === 'infrastructure_error')
        return []
      const was = metric.valueOf(before.row)
      const now = metric.valueOf(after.row)
      return was === null || now === null ? [] : [{ was, now }]
    })
    const better = (pair: { was: number; now: number }) =>
      metric.better === 'higher' ? pair.now > pair.was : pair.now < pair.was
    const improved = paired.filter(better).length
    const unchanged = paired.filter((pair) => pair.now === pair.was).length
    const baselineMean = meanOf(paired.map((pair) => pair.was))
    const currentMean = meanOf(paired.map((pair) => pair.now))
    return {
      metric: metric.name,
      label: metric.label,
      unit: metric.unit,
      better: metric.better,
      n: paired.length,
      baseline_mean: baselineMean,
      current_mean: currentMean,
      delta: baselineMean === null || currentMean === null ? null : currentMean - baselineMean,
      improved,
      regressed: paired.length - improved - unchanged,
      unchanged,
    }
  })
  return { regressed, recovered, missing, added, metrics }
}
