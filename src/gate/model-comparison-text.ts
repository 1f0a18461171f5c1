// A model comparison as console lines (the gate prints them): per candidate model, each metric's delta with its
// 95% interval and n, the changed verdicts, and each model's cost with the date its prices were read.
import type { ModelComparison } from './compare-models.ts'
import { formatDeltaInUnit, formatInUnit } from './format.ts'

const money = (value: number | null, currency: string) =>
  value === null ? 'unknown' : `${value.toFixed(4)} ${currency}`
const minutes = (value: number | null) => (value === null ? 'unknown' : `${value.toFixed(2)} min`)

export function modelComparisonLines(comparison: ModelComparison): string[] {
  const lines: string[] = []
  const { currency, read_on } = comparison.prices
  for (const model of comparison.models) {
    lines.push(
      `model ${model.model}: ${model.pass_rate.successes}/${model.pass_rate.n} passed; ` +
        `voice ${minutes(model.cost.voice_active_minutes)} active, standby ${minutes(model.cost.voice_standby_minutes)}; ` +
        `cost ${money(model.cost.total_cost, currency)} (voice ${money(model.cost.voice_cost, currency)}, backend ` +
        `${money(model.cost.backend.cost, currency)}, judge ${money(model.cost.judge.cost, currency)}; prices read ${read_on})`,
    )
  }
  for (const candidate of comparison.candidates) {
    lines.push(`${candidate.model} vs ${comparison.reference} (delta, 95% interval):`)
    for (const metric of candidate.metrics) {
      const interval =
        metric.lower === null || metric.upper === null
          ? 'interval unknown'
          : `[${formatDeltaInUnit(metric.unit, metric.lower)}, ${formatDeltaInUnit(metric.unit, metric.upper)}]`
      lines.push(
        `  ${metric.label}: ${formatInUnit(metric.unit, metric.candidate_value)} vs ${formatInUnit(metric.unit, metric.reference_value)}, ` +
          `delta ${formatDeltaInUnit(metric.unit, metric.delta)} ${interval} (n=${metric.candidate_n}/${metric.reference_n})`,
      )
    }
    lines.push(
      candidate.verdict_changes.length === 0
        ? '  no scenario changed verdict'
        : `  changed verdicts: ${candidate.verdict_changes.map((change) => `${change.description} ${change.reference}→${change.candidate}`).join('; ')}`,
    )
    if (candidate.unpaired.length > 0) lines.push(`  run on one model only: ${candidate.unpaired.join('; ')}`)
  }
  return lines
}
