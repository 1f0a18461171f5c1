// Two or more GPT-Live models on the same scenarios, side by side: a pure function of results files (each file one
// model and architecture, the model read from run.configuration.model). Rows pair across models by (phase,
// architecture, scenario id, trial). Per candidate model against the reference: each metric's delta with its 95%
// interval (src/reporting/delta-intervals.ts), the scenarios whose verdict changed, and cost per scenario and run.
// The gate's model checks (model-checks.ts) and the comparison page (src/report/render-model-comparison.ts) both
// read this, so they never disagree about a number.
import { DEFAULT_MODELS } from '../config/defaults.ts'
import type { PriceTable } from '../config/prices.ts'
import { costContextOf, runCost, type ScenarioCost, scenarioCost } from '../reporting/cost.ts'
import {
  type DeltaInterval,
  meanDelta,
  passRateDelta,
  percentileDelta,
} from '../reporting/delta-intervals.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { ResultItem, ResultStatus } from '../reporting/result-schema.ts'
import { type MetricUnit, ROW_METRICS } from '../reporting/row-metrics.ts'
import { type ProportionInterval, wilsonInterval } from '../reporting/statistics.ts'
import { GateInputError } from './errors.ts'
import { describeKey, type GateRowKey, gateRowKey, keyTextAcrossModels, modelOf } from './row-keys.ts'
import type { GateFile } from './rows.ts'

export interface ComparedMetric {
  name: string
  label: string
  unit: MetricUnit
  better: 'higher' | 'lower'
  /** How the figure is summarized per model: a pass rate, a mean over rows, or a percentile of rows. */
  summary: 'rate' | 'mean' | 'p50' | 'p95'
}

export interface MetricComparison extends ComparedMetric, DeltaInterval {
  reference_value: number | null
  candidate_value: number | null
  reference_n: number
  candidate_n: number
}

export interface VerdictChange {
  key: GateRowKey
  description: string
  title: string
  reference: ResultStatus
  candidate: ResultStatus
}

export interface ModelRows {
  model: string
  /** The files read for the model, in the order given. */
  sources: string[]
  rows: number
  pass_rate: ProportionInterval
  cost: ScenarioCost
}

export interface CandidateComparison {
  model: string
  metrics: MetricComparison[]
  /** Scenarios run on both models whose status differs. */
  verdict_changes: VerdictChange[]
  /** Rows of either model with no counterpart on the other (a scenario run on one model only). */
  unpaired: string[]
}

export interface ScenarioCostRow {
  key: Omit<GateRowKey, 'model'>
  title: string
  /** Per model, in `models` order; null when the model did not run the scenario. */
  costs: (ScenarioCost | null)[]
  statuses: (ResultStatus | null)[]
}

export interface ModelComparison {
  reference: string
  /** The reference first, then the others in the order their files were given. */
  models: ModelRows[]
  candidates: CandidateComparison[]
  scenarios: ScenarioCostRow[]
  prices: Pick<PriceTable, 'read_on' | 'currency' | 'sources'>
}

export interface CompareModelsOptions {
  /** The model the others are compared with; default: gpt-live-1 (the default model) if present, else the first file's. */
  reference?: string | null
  prices: PriceTable
  /** A row's judge usage events (from its details); null or absent when they are unknown. */
  judgeEventsOf?: (file: GateFile, rowIndex: number) => readonly unknown[] | null
}

interface ModelRow {
  key: GateRowKey
  row: ResultItem
  cost: ScenarioCost
}

const graded = (rows: readonly ModelRow[]) => rows.filter(({ row }) => row.status !== 'infrastructure_error')
const valuesOf = (rows: readonly ModelRow[], value: (row: ResultItem) => number | null): number[] =>
  graded(rows)
    .map(({ row }) => value(row))
    .filter((item): item is number => item !== null && Number.isFinite(item))

const yieldRate = (row: ResultItem): number | null =>
  row.observability?.[EXTENSION_KEY]?.run_turns?.yield_rate ?? null
const latency = (row: ResultItem): number | null => row.metrics.audio.response_latency_ms

/** Every figure compared: the pass rate, response latency P50/P95, each row metric's mean, and RUN's yield rate. */
export const COMPARED_METRICS: readonly (ComparedMetric & { valueOf: (row: ResultItem) => number | null })[] =
  [
    {
      name: 'pass_rate',
      label: 'pass rate',
      unit: 'ratio',
      better: 'higher',
      summary: 'rate',
      valueOf: () => null,
    },
    {
      name: 'response_latency_p50_ms',
      label: 'response latency P50',
      unit: 'ms',
      better: 'lower',
      summary: 'p50',
      valueOf: latency,
    },
    {
      name: 'response_latency_p95_ms',
      label: 'response latency P95',
      unit: 'ms',
      better: 'lower',
      summary: 'p95',
      valueOf: latency,
    },
    ...ROW_METRICS.map((metric) => ({
      name: metric.name,
      label: `${metric.label} (mean)`,
      unit: metric.unit,
      better: metric.better,
      summary: 'mean' as const,
      valueOf: metric.valueOf,
    })),
    {
      name: 'yield_rate',
      label: 'yield rate (mean)',
      unit: 'ratio',
      better: 'higher',
      summary: 'mean',
      valueOf: yieldRate,
    },
  ]

function passRateOf(rows: readonly ModelRow[]): ProportionInterval {
  return wilsonInterval(rows.filter(({ row }) => row.status === 'passed').length, rows.length)
}

function summaryValue(metric: ComparedMetric, values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return null
  if (metric.summary === 'p50') return sorted[Math.max(1, Math.ceil(0.5 * sorted.length)) - 1] ?? null
  if (metric.summary === 'p95') return sorted[Math.max(1, Math.ceil(0.95 * sorted.length)) - 1] ?? null
  return sorted.reduce((sum, value) => sum + value, 0) / sorted.length
}

function compareMetric(
  metric: (typeof COMPARED_METRICS)[number],
  reference: readonly ModelRow[],
  candidate: readonly ModelRow[],
): MetricComparison {
  const { valueOf: _, ...shown } = metric
  if (metric.summary === 'rate') {
    const a = passRateOf(reference)
    const b = passRateOf(candidate)
    return {
      ...shown,
      reference_value: a.estimate,
      candidate_value: b.estimate,
      reference_n: a.n,
      candidate_n: b.n,
      ...passRateDelta(a, b),
    }
  }
  const a = valuesOf(reference, metric.valueOf)
  const b = valuesOf(candidate, metric.valueOf)
  const interval =
    metric.summary === 'mean' ? meanDelta(a, b) : percentileDelta(a, b, metric.summary === 'p50' ? 50 : 95)
  return {
    ...shown,
    reference_value: summaryValue(metric, a),
    candidate_value: summaryValue(metric, b),
    reference_n: a.length,
    candidate_n: b.length,
    ...interval,
  }
}

/** @throws GateInputError when the files hold fewer than two models, or the reference is not among them */
export function compareModels(files: readonly GateFile[], options: CompareModelsOptions): ModelComparison {
  const byModel = new Map<string, { sources: string[]; rows: ModelRow[] }>()
  for (const file of files) {
    const model = modelOf(file.document)
    const entry = byModel.get(model) ?? { sources: [], rows: [] }
    byModel.set(model, entry)
    entry.sources.push(file.source)
    const context = costContextOf(file.document.run.configuration, options.prices)
    file.document.results.forEach((row, index) => {
      const events = options.judgeEventsOf?.(file, index) ?? null
      entry.rows.push({ key: gateRowKey(file.document, row), row, cost: scenarioCost(row, events, context) })
    })
  }
  const given = [...byModel.keys()]
  if (given.length < 2) {
    throw new GateInputError(
      '--compare-models',
      `needs results of at least two models; the files hold ${given.length === 0 ? 'none' : `only ${given.join(', ')}`} (run.configuration.model)`,
    )
  }
  // A glob of run folders sorts `gpt-live-1.1_…` before `gpt-live-1_…`, so the default model is the reference
  // whenever it is there; otherwise the first file's model.
  const reference =
    options.reference ??
    (byModel.has(DEFAULT_MODELS.live_model) ? DEFAULT_MODELS.live_model : (given[0] ?? ''))
  if (!byModel.has(reference)) {
    throw new GateInputError(
      '--reference-model',
      `${reference} is not among the files' models (${given.join(', ')})`,
    )
  }
  const order = [reference, ...given.filter((model) => model !== reference)]
  const rowsOf = (model: string) => byModel.get(model)?.rows ?? []
  const referenceRows = rowsOf(reference)
  const referenceByKey = new Map(referenceRows.map((item) => [keyTextAcrossModels(item.key), item]))

  const candidates = order.slice(1).map((model): CandidateComparison => {
    const rows = rowsOf(model)
    const byKey = new Map(rows.map((item) => [keyTextAcrossModels(item.key), item]))
    const verdict_changes: VerdictChange[] = []
    for (const item of rows) {
      const before = referenceByKey.get(keyTextAcrossModels(item.key))
      if (before === undefined || before.row.status === item.row.status) continue
      verdict_changes.push({
        key: item.key,
        description: describeKey({ ...item.key, model: 'unknown' }),
        title: item.row.title ?? item.key.scenario_id,
        reference: before.row.status,
        candidate: item.row.status,
      })
    }
    const unpaired = [
      ...rows
        .filter((item) => !referenceByKey.has(keyTextAcrossModels(item.key)))
        .map((item) => describeKey(item.key)),
      ...referenceRows
        .filter((item) => !byKey.has(keyTextAcrossModels(item.key)))
        .map((item) => describeKey(item.key)),
    ]
    return {
      model,
      metrics: COMPARED_METRICS.map((metric) => compareMetric(metric, referenceRows, rows)),
      verdict_changes,
      unpaired,
    }
  })

  const scenarioKeys = new Map<string, { key: Omit<GateRowKey, 'model'>; title: string }>()
  for (const model of order) {
    for (const { key, row } of rowsOf(model)) {
      const text = keyTextAcrossModels(key)
      if (scenarioKeys.has(text)) continue
      const { model: _, ...rest } = key
      scenarioKeys.set(text, { key: rest, title: row.title ?? key.scenario_id })
    }
  }
  const lookups = order.map(
    (model) => new Map(rowsOf(model).map((item) => [keyTextAcrossModels(item.key), item])),
  )
  const scenarios = [...scenarioKeys].map(([text, { key, title }]) => ({
    key,
    title,
    costs: lookups.map((lookup) => lookup.get(text)?.cost ?? null),
    statuses: lookups.map((lookup) => lookup.get(text)?.row.status ?? null),
  }))

  return {
    reference,
    models: order.map((model) => {
      const rows = rowsOf(model)
      return {
        model,
        sources: byModel.get(model)?.sources ?? [],
        rows: rows.length,
        pass_rate: passRateOf(rows),
        cost: runCost(rows.map((item) => item.cost)),
      }
    }),
    candidates,
    scenarios,
    prices: {
      read_on: options.prices.read_on,
      currency: options.prices.currency,
      sources: options.prices.sources,
    },
  }
}
