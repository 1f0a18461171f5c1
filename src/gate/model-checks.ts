// The gate's checks on a model comparison (compare-models.ts): each candidate model against the reference, one
// named check per threshold and model. As the gate's own pass rate check: the observed delta is judged directly,
// unless the pass rate is judged on its interval (--pass-rate-interval, or repeated trials), when the delta's
// 95% interval decides: fail when even its best end is past the threshold, pass when its worst end is within it,
// inconclusive otherwise. Unknown (no rows, no latency) is inconclusive, never a pass.
import type { CandidateComparison, MetricComparison, ModelComparison } from './compare-models.ts'
import type { CheckOutcome, GateCheck, GateReport } from './evaluate.ts'

export interface ModelGateOptions {
  /** Largest acceptable fall of a candidate's pass rate below the reference's, in [0, 1]; null: not gated. */
  maxPassRateDrop: number | null
  /** Largest acceptable rise of a candidate's P95 response latency over the reference's, in ms; null: not gated. */
  maxP95LatencyIncreaseMs: number | null
  /** Judge on the delta's interval instead of the observed delta. */
  useInterval: boolean
}

const percent = (value: number | null) => (value === null ? 'unknown' : `${(value * 100).toFixed(1)}%`)
const points = (value: number | null) =>
  value === null ? 'unknown' : `${value > 0 ? '+' : ''}${(value * 100).toFixed(1)} points`
const ms = (value: number | null) =>
  value === null ? 'unknown' : `${value > 0 ? '+' : ''}${Math.round(value)} ms`

function metric(candidate: CandidateComparison, name: string): MetricComparison {
  const found = candidate.metrics.find((item) => item.name === name)
  if (found === undefined) throw new Error(`model comparison has no ${name} metric`)
  return found
}

/**
 * `limit` bounds how bad the delta may be; `worse` is the sign of getting worse (-1: a fall is worse, +1: a rise).
 * Returns the check's outcome and the figures it judged.
 */
function judgeDelta(
  compared: MetricComparison,
  limit: number,
  worse: -1 | 1,
  useInterval: boolean,
): { outcome: CheckOutcome; judged: string } {
  const exceeds = (value: number) => value * worse > limit
  if (compared.delta === null) return { outcome: 'inconclusive', judged: 'unknown' }
  if (!useInterval || compared.lower === null || compared.upper === null) {
    return { outcome: exceeds(compared.delta) ? 'fail' : 'pass', judged: 'the observed delta' }
  }
  const best = worse === -1 ? compared.upper : compared.lower
  const worst = worse === -1 ? compared.lower : compared.upper
  if (exceeds(best)) return { outcome: 'fail', judged: 'even the best end of its 95% interval' }
  if (!exceeds(worst)) return { outcome: 'pass', judged: 'the worst end of its 95% interval' }
  return {
    outcome: 'inconclusive',
    judged: 'its 95% interval, which straddles the limit; run more trials to decide',
  }
}

export function modelChecks(comparison: ModelComparison, options: ModelGateOptions): GateCheck[] {
  const checks: GateCheck[] = []
  for (const candidate of comparison.candidates) {
    const versus = `${candidate.model} vs ${comparison.reference}`
    if (options.maxPassRateDrop !== null) {
      const rate = metric(candidate, 'pass_rate')
      const { outcome, judged } = judgeDelta(rate, options.maxPassRateDrop, -1, options.useInterval)
      const changed = candidate.verdict_changes.map(
        (change) => `${change.description} ${change.reference}→${change.candidate}`,
      )
      checks.push({
        name: `max_pass_rate_drop:${candidate.model}`,
        outcome,
        message:
          `${versus}: pass rate ${percent(rate.candidate_value)} (n=${rate.candidate_n}) vs ${percent(rate.reference_value)} ` +
          `(n=${rate.reference_n}), delta ${points(rate.delta)} [${points(rate.lower)}, ${points(rate.upper)}]; ` +
          `${judged} ${outcome === 'fail' ? 'drops more than' : outcome === 'pass' ? 'drops no more than' : 'against'} ` +
          `${points(options.maxPassRateDrop).replace('+', '')}` +
          (changed.length === 0 ? '' : `; changed verdicts: ${changed.slice(0, 10).join('; ')}`),
      })
    }
    if (options.maxP95LatencyIncreaseMs !== null) {
      const p95 = metric(candidate, 'response_latency_p95_ms')
      const { outcome, judged } = judgeDelta(p95, options.maxP95LatencyIncreaseMs, 1, options.useInterval)
      checks.push({
        name: `max_p95_latency_increase_ms:${candidate.model}`,
        outcome,
        message:
          `${versus}: P95 response latency delta ${ms(p95.delta)} [${ms(p95.lower)}, ${ms(p95.upper)}] ` +
          `(n=${p95.candidate_n} vs ${p95.reference_n}); ${judged} ` +
          `${outcome === 'fail' ? 'rises more than' : outcome === 'pass' ? 'rises no more than' : 'against'} ` +
          `${options.maxP95LatencyIncreaseMs} ms`,
      })
    }
  }
  return checks
}

/** The gate report with the model checks added: a definite failure outranks an inconclusive check. */
export function withModelChecks(report: GateReport, checks: readonly GateCheck[]): GateReport {
  const all = [...report.checks, ...checks]
  const outcome: CheckOutcome = all.some((check) => check.outcome === 'fail')
    ? 'fail'
    : all.some((check) => check.outcome === 'inconclusive')
      ? 'inconclusive'
      : 'pass'
  return { ...report, checks: all, outcome }
}
