// The gate: a pure function of results documents, an optional baseline and thresholds, giving one outcome and the
// named checks behind it. Nothing here reads files; load.ts does that.
//
// Decisions where the issue is silent:
// - The pass rate counts every row: an infrastructure error is in the denominator and never a pass.
// - Infrastructure errors, duplicate keys and missing scenarios fail the gate whatever the thresholds.
// - With repeated trials (some scenario has more than one row), or --pass-rate-interval, the pass rate is judged on
//   its 95% Wilson interval: pass when the lower bound reaches the threshold, fail when the upper bound is below it,
//   and inconclusive when the interval contains it. Otherwise the observed rate is compared directly.
// - That interval counts scenarios, not rows: trials of one scenario are not independent draws (offline they are
//   identical), so each scenario is one observation, its pass fraction over its trials (trials-summary.ts). Rows
//   that repeat nothing (a `-t "trial 2/3"` subset) are judged exactly like the single-trial run of the same rows.
// - A latency threshold with no measured response is inconclusive: unknown is not fast.
// - A definite failure outranks an inconclusive check: the outcome is fail if anything failed.

import { type ProportionInterval, wilsonInterval } from '../reporting/statistics.ts'
import { repeatsTrials, scenarioPassRate, summarizeTrials } from '../reporting/trials-summary.ts'
import { type BaselineComparison, compareWithBaseline } from './baseline.ts'
import { GateInputError } from './errors.ts'
import { type LatencySplit, latencySplit } from './latency.ts'
import { type MetricThreshold, metricThresholdCheck } from './metric-thresholds.ts'
import { describeKey } from './row-keys.ts'
import { type GateFile, type KeyedRow, keyRows } from './rows.ts'

export interface GateOptions {
  /** Lowest acceptable pass rate in [0, 1]; null to not gate on it. */
  minPassRate: number | null
  /** Highest acceptable P95 response latency; null to not gate on it. */
  maxP95LatencyMs: number | null
  /** Scenario ids that must be present and pass in every trial. */
  required: readonly string[]
  /** Fail when any row that passed in the baseline does not pass now. */
  noRegressions: boolean
  /** Accept interrupted or partial results instead of refusing them. */
  allowPartial: boolean
  /** Judge the pass rate on its interval even when every scenario ran once. */
  passRateInterval: boolean
  /** `--max-metric` / `--min-metric` bounds on row metrics by name (metric-thresholds.ts), in command-line order. */
  metricThresholds: readonly MetricThreshold[]
}

export const DEFAULT_GATE_OPTIONS: GateOptions = {
  minPassRate: null,
  maxP95LatencyMs: null,
  required: [],
  noRegressions: false,
  allowPartial: false,
  passRateInterval: false,
  metricThresholds: [],
}

export type CheckOutcome = 'pass' | 'fail' | 'inconclusive'

export interface GateCheck {
  name: string
  outcome: CheckOutcome
  message: string
}

export interface GroupCounts {
  phase: string
  architecture: string
  total: number
  passed: number
  failed: number
  infrastructure_errors: number
}

export interface GateReport {
  outcome: CheckOutcome
  checks: GateCheck[]
  /** Passed rows out of all rows, with the rows' Wilson interval. */
  pass_rate: ProportionInterval
  /** With repeated trials: the pass rate over scenarios that the interval check judges (n = scenarios). */
  scenario_pass_rate: ProportionInterval | null
  repeated_trials: boolean
  groups: GroupCounts[]
  latency: LatencySplit
  comparison: BaselineComparison | null
  files: GateFileSummary[]
}

export interface GateFileSummary {
  source: string
  run_id: string
  partial: string | null
  /** The run's repeated trials (k, pass^1, pass^k), null for a run without trials. */
  trials: { k: number; pass_1: number | null; pass_k: number | null } | null
}

export const GATE_EXIT_CODES = { pass: 0, fail: 1, bad_input: 2, inconclusive: 3 } as const

const MAX_NAMED = 10

function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).join('; ')
  return items.length > MAX_NAMED ? `${shown}; and ${items.length - MAX_NAMED} more` : shown
}

const percent = (value: number | null) => (value === null ? 'unknown' : `${(value * 100).toFixed(1)}%`)

function groupCounts(rows: readonly KeyedRow[]): GroupCounts[] {
  const groups = new Map<string, GroupCounts>()
  for (const { key, row } of rows) {
    const name = `${key.phase}/${key.architecture}`
    const group = groups.get(name) ?? {
      phase: key.phase,
      architecture: key.architecture,
      total: 0,
      passed: 0,
      failed: 0,
      infrastructure_errors: 0,
    }
    group.total++
    if (row.status === 'passed') group.passed++
    else if (row.status === 'failed') group.failed++
    else group.infrastructure_errors++
    groups.set(name, group)
  }
  return [...groups.values()]
}

function passRateCheck(
  rate: ProportionInterval,
  threshold: number,
  useInterval: boolean,
  overScenarios: boolean,
): GateCheck {
  const name = 'min_pass_rate'
  const observed = overScenarios
    ? `over ${rate.n} scenarios (each its pass fraction over its trials: trials are not independent draws) ${percent(rate.estimate)}`
    : `${rate.successes}/${rate.n} = ${percent(rate.estimate)}`
  if (rate.n === 0) return { name, outcome: 'inconclusive', message: 'no rows to compute a pass rate from' }
  if (!useInterval) {
    const ok = (rate.estimate as number) >= threshold
    return {
      name,
      outcome: ok ? 'pass' : 'fail',
      message: `pass rate ${observed} ${ok ? 'meets' : 'is below'} the minimum ${percent(threshold)}`,
    }
  }
  const interval = `${observed}, 95% interval [${percent(rate.lower)}, ${percent(rate.upper)}]`
  if ((rate.lower as number) >= threshold) {
    return {
      name,
      outcome: 'pass',
      message: `pass rate ${interval}: its lower bound meets ${percent(threshold)}`,
    }
  }
  if ((rate.upper as number) < threshold) {
    return {
      name,
      outcome: 'fail',
      message: `pass rate ${interval}: even its upper bound is below ${percent(threshold)}`,
    }
  }
  return {
    name,
    outcome: 'inconclusive',
    message: `pass rate ${interval} contains the minimum ${percent(threshold)}; run more trials to decide`,
  }
}

/**
 * P95 of the per-response latencies when rows have them (single-turn rows answer one response each); otherwise,
 * as for a RUN result, P95 of each conversation's mean response latency, the only latency results.json keeps for
 * a conversation. The message says which one was judged.
 */
function latencyCheck(latency: LatencySplit, threshold: number): GateCheck {
  const name = 'max_p95_latency_ms'
  const verdict = (p95: number) => (p95 <= threshold ? 'pass' : 'fail')
  const compared = (p95: number) => `${p95 <= threshold ? 'is within' : 'exceeds'} ${threshold} ms`
  if (latency.all.p95 !== null) {
    const { p95, n } = latency.all
    return {
      name,
      outcome: verdict(p95),
      message: `P95 response latency ${p95} ms over n=${n} responses ${compared(p95)}`,
    }
  }
  const { p95, n } = latency.conversation_means
  if (p95 !== null) {
    return {
      name,
      outcome: verdict(p95),
      message:
        `P95 of each conversation's mean response latency ${p95} ms over n=${n} conversations ` +
        `(${latency.conversation_responses} answered responses; results.json keeps only a conversation's mean) ` +
        compared(p95),
    }
  }
  return { name, outcome: 'inconclusive', message: 'no response latency was measured, so P95 is unknown' }
}

/** @throws GateInputError for partial results without allowPartial, or a baseline with one key twice */
export function evaluateGate(
  files: readonly GateFile[],
  baselineFiles: readonly GateFile[],
  options: GateOptions,
): GateReport {
  if (files.length === 0) throw new GateInputError('gate', 'no results file was given')
  if (!options.allowPartial) {
    for (const file of [...files, ...baselineFiles]) {
      if (file.partial !== null) {
        throw new GateInputError(
          file.source,
          `holds partial results (${file.partial}); gate a run that ended, or pass --allow-partial to judge what finished`,
        )
      }
    }
  }
  const current = keyRows(files)
  const checks: GateCheck[] = []
  const fail = (name: string, message: string) => checks.push({ name, outcome: 'fail', message })

  if (current.duplicates.length > 0) {
    fail('duplicate_rows', `the same row appears twice: ${listed(current.duplicates)}`)
  }
  const infrastructure = current.rows.filter(({ row }) => row.status === 'infrastructure_error')
  if (infrastructure.length > 0) {
    const named = infrastructure.map(
      ({ key, row }) => `${describeKey(key)} at ${row.error?.stage ?? 'unknown'}`,
    )
    fail(
      'infrastructure_errors',
      `${infrastructure.length} row(s) did not run to a verdict: ${listed(named)}`,
    )
  }

  let comparison: BaselineComparison | null = null
  if (baselineFiles.length > 0) {
    const baseline = keyRows(baselineFiles)
    if (baseline.duplicates.length > 0) {
      throw new GateInputError('--baseline', `the baseline holds a row twice: ${listed(baseline.duplicates)}`)
    }
    comparison = compareWithBaseline(current, baseline)
    if (comparison.missing.length > 0) {
      fail(
        'missing_scenarios',
        `${comparison.missing.length} baseline row(s) are missing: ${listed(comparison.missing.map(describeKey))}`,
      )
    }
    if (options.noRegressions) {
      const regressed = comparison.regressed.map(describeKey)
      checks.push({
        name: 'no_regressions',
        outcome: regressed.length === 0 ? 'pass' : 'fail',
        message:
          regressed.length === 0
            ? 'no row that passed in the baseline fails now'
            : `${regressed.length} row(s) passed in the baseline and do not now: ${listed(regressed)}`,
      })
    }
  }

  for (const id of options.required) {
    const rows = current.rows.filter(({ key }) => key.scenario_id === id)
    if (rows.length === 0) {
      fail('required_scenarios', `required scenario ${id} is missing from the results`)
      continue
    }
    const notPassed = rows.filter(({ row }) => row.status !== 'passed')
    if (notPassed.length > 0) {
      fail(
        'required_scenarios',
        `required scenario ${id} did not pass: ${listed(notPassed.map(({ key, row }) => `${describeKey(key)} ${row.status}`))}`,
      )
    }
  }

  const passed = current.rows.filter(({ row }) => row.status === 'passed').length
  const passRate = wilsonInterval(passed, current.rows.length)
  const scenarioOf = ({ key }: KeyedRow) => JSON.stringify([key.phase, key.architecture, key.scenario_id])
  const repeatedTrials = repeatsTrials(current.rows, scenarioOf)
  const scenarioRate = repeatedTrials
    ? scenarioPassRate(current.rows, scenarioOf, ({ row }) => row.status === 'passed')
    : null
  if (options.minPassRate !== null) {
    checks.push(
      passRateCheck(
        scenarioRate ?? passRate,
        options.minPassRate,
        repeatedTrials || options.passRateInterval,
        scenarioRate !== null,
      ),
    )
  }
  const latency = latencySplit(current.rows.map(({ row }) => row))
  if (options.maxP95LatencyMs !== null) checks.push(latencyCheck(latency, options.maxP95LatencyMs))
  for (const threshold of options.metricThresholds) {
    checks.push(
      metricThresholdCheck(
        current.rows.map(({ row }) => row),
        threshold,
      ),
    )
  }

  const outcome: CheckOutcome = checks.some((check) => check.outcome === 'fail')
    ? 'fail'
    : checks.some((check) => check.outcome === 'inconclusive')
      ? 'inconclusive'
      : 'pass'
  return {
    outcome,
    checks,
    pass_rate: passRate,
    scenario_pass_rate: scenarioRate,
    repeated_trials: repeatedTrials,
    groups: groupCounts(current.rows),
    latency,
    comparison,
    files: files.map((file) => {
      const trials = summarizeTrials(file.document.results)
      return {
        source: file.source,
        run_id: file.document.run.id,
        partial: file.partial,
        trials: trials === null ? null : { k: trials.k, pass_1: trials.pass_1, pass_k: trials.pass_k },
      }
    }),
  }
}
