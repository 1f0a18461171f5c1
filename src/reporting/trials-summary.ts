// Repeated trials summarized from a run's rows: c passes out of n trials give pass^1 and, for every j up to n,
// pass^j with the unbiased estimator C(c,j)/C(n,j); pass^k is the curve at the run's k (the most trials any
// scenario ran). The overall figures are means over scenarios, so a scenario that ran more often does not weigh
// more. An infrastructure error is a trial that did not pass; its metrics are left out of every spread.
// Rows that repeat nothing (every scenario ran once, as a `-t "trial 2/3"` subset does) are not a trials run:
// they are summarized, gated and reported like the single-trial run of the same rows.

import { FAULT_KINDS } from '../config/fault-profiles.ts'
import { EXTENSION_KEY } from './extensions/registry.ts'
import type { FaultClassTrials, RunTrials, ScenarioTrials } from './extensions/trials.ts'
import type { ResultItem } from './result-schema.ts'
import { rowKeyOf } from './row-key.ts'
import { ROW_METRICS } from './row-metrics.ts'
import {
  meanOf,
  type ProportionInterval,
  passHatK,
  type Spread,
  spreadOf,
  wilsonIntervalOfRate,
} from './statistics.ts'

/** A trials run is one whose rows carry trial numbers (every row of it does; see ./extensions/trial.ts). */
export function isTrialsRun(rows: readonly Pick<ResultItem, 'observability'>[]): boolean {
  return rows.some((row) => row.observability?.[EXTENSION_KEY]?.trial !== undefined)
}

/** Each row metric's spread over the graded rows (infrastructure rows' metrics are diagnostic only). */
function metricSpreads(rows: readonly ResultItem[]): Record<string, Spread> {
  const graded = rows.filter((row) => row.status !== 'infrastructure_error')
  return Object.fromEntries(
    ROW_METRICS.map((metric) => [
      metric.name,
      spreadOf(graded.map((row) => metric.valueOf(row)).filter((value): value is number => value !== null)),
    ]),
  )
}

/** pass^j for j = 1..n. */
export function passHatCurve(passed: number, n: number): number[] {
  return Array.from({ length: n }, (_, index) => passHatK(passed, n, index + 1) as number)
}

function groupedBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [item])
    else group.push(item)
  }
  return groups
}

/**
 * The pass rate over scenarios, with its 95% Wilson interval: each scenario (by `scenarioOf`) is one observation,
 * its pass fraction over its trials, because trials of one scenario are not independent draws (offline they are
 * identical). `successes` is the sum of those fractions and `n` the number of scenarios; with one row per
 * scenario it is the plain row pass rate.
 */
export function scenarioPassRate<T>(
  rows: readonly T[],
  scenarioOf: (row: T) => string,
  passed: (row: T) => boolean,
): ProportionInterval {
  const fractions = [...groupedBy(rows, scenarioOf).values()].map(
    (trials) => trials.filter(passed).length / trials.length,
  )
  // Clamped: a sum of fractions that are each at most 1 may round a hair past the count.
  const sum = Math.min(
    fractions.length,
    fractions.reduce((total, fraction) => total + fraction, 0),
  )
  return wilsonIntervalOfRate(sum, fractions.length)
}

/** Whether any scenario (by `scenarioOf`) has more than one row: only then were trials repeated. */
export function repeatsTrials<T>(rows: readonly T[], scenarioOf: (row: T) => string): boolean {
  return [...groupedBy(rows, scenarioOf).values()].some((trials) => trials.length > 1)
}

/**
 * The `trials` run extension for these rows; null when the rows are not a trials run, or repeat nothing (every
 * scenario ran once: k would be 1, pass^1 twice over).
 */
export function summarizeTrials(rows: readonly ResultItem[]): RunTrials | null {
  if (!isTrialsRun(rows)) return null
  const byScenario = groupedBy(rows, (row) => rowKeyOf(row).scenario_id)
  const k = Math.max(1, ...[...byScenario.values()].map((trials) => trials.length))
  if (k === 1) return null
  const scenarios: ScenarioTrials[] = [...byScenario].map(([scenario_id, trials]) => {
    const n = trials.length
    const passed = trials.filter((row) => row.status === 'passed').length
    return {
      scenario_id,
      trials: n,
      passed,
      infrastructure_errors: trials.filter((row) => row.status === 'infrastructure_error').length,
      pass_1: passed / n,
      pass_k: passHatK(passed, n, k),
      pass_hat: passHatCurve(passed, n),
      metrics: metricSpreads(trials),
    }
  })
  const withPassK = scenarios.flatMap((scenario) => (scenario.pass_k === null ? [] : [scenario.pass_k]))
  const faultClasses = faultClassTrials(rows, k)
  return {
    k,
    pass_1: meanOf(scenarios.map((scenario) => scenario.pass_1)),
    pass_k: meanOf(withPassK),
    pass_k_scenarios: withPassK.length,
    scenarios,
    metrics: metricSpreads(rows),
    ...(faultClasses === null ? {} : { fault_classes: faultClasses }),
  }
}

/**
 * pass^k per fault class (issue 22): for each kind some row injected, each scenario's trials that injected it give
 * c of n and pass^k = C(c,k)/C(n,k) (null below k trials); the class's figures are means over its scenarios. null
 * when no row ran under a fault profile.
 */
export function faultClassTrials(rows: readonly ResultItem[], k: number): FaultClassTrials[] | null {
  const faulted = rows.filter((row) => row.observability?.[EXTENSION_KEY]?.faults !== undefined)
  if (faulted.length === 0) return null
  const classes: FaultClassTrials[] = []
  for (const kind of FAULT_KINDS) {
    const hit = faulted.filter((row) => row.observability?.[EXTENSION_KEY]?.faults?.classes.includes(kind))
    if (hit.length === 0) continue
    const byScenario = [...groupedBy(hit, (row) => rowKeyOf(row).scenario_id).values()]
    const perScenario = byScenario.map((trials) => {
      const passed = trials.filter((row) => row.status === 'passed').length
      return {
        n: trials.length,
        passed,
        pass_1: passed / trials.length,
        pass_k: passHatK(passed, trials.length, k),
      }
    })
    const withPassK = perScenario.flatMap((scenario) => (scenario.pass_k === null ? [] : [scenario.pass_k]))
    classes.push({
      class: kind,
      scenarios: perScenario.length,
      trials: hit.length,
      passed: perScenario.reduce((total, scenario) => total + scenario.passed, 0),
      pass_1: meanOf(perScenario.map((scenario) => scenario.pass_1)) as number,
      pass_k: meanOf(withPassK),
      pass_k_scenarios: withPassK.length,
    })
  }
  return classes
}
