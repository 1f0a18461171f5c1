// Repeated trials of one scenario, summarized: c passes out of n trials give pass^1 (the plain rate) and pass^k
// with the unbiased estimator; the overall figure is the mean over scenarios, so a scenario run more often does
// not weigh more. An infrastructure error is a trial that did not pass.

import type { ResultItem } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'
import { meanOf, passHatK } from './statistics.ts'

export interface ScenarioTrials {
  scenario_id: string
  n: number
  passed: number
  pass_1: number
  /** pass^k at k = the run's trial count (the largest n), null for a scenario with fewer trials than that. */
  pass_k: number | null
}

export interface TrialsSummary {
  /** The k of pass^k: the most trials any scenario ran. */
  k: number
  scenarios: ScenarioTrials[]
  /** Means over the scenarios that have a value. */
  pass_1: number | null
  pass_k: number | null
}

/** Null when every scenario ran once: there is nothing beyond the pass rate to say. */
export function summarizeTrials(rows: readonly ResultItem[]): TrialsSummary | null {
  const byScenario = new Map<string, { n: number; passed: number }>()
  for (const row of rows) {
    const { scenario_id } = rowKeyOf(row)
    const entry = byScenario.get(scenario_id) ?? { n: 0, passed: 0 }
    entry.n++
    if (row.status === 'passed') entry.passed++
    byScenario.set(scenario_id, entry)
  }
  const k = Math.max(0, ...[...byScenario.values()].map((entry) => entry.n))
  if (k <= 1) return null
  const scenarios = [...byScenario].map(([scenario_id, { n, passed }]) => ({
    scenario_id,
    n,
    passed,
    pass_1: passed / n,
    pass_k: passHatK(passed, n, k),
  }))
  return {
    k,
    scenarios,
    pass_1: meanOf(scenarios.map((scenario) => scenario.pass_1)),
    pass_k: meanOf(scenarios.flatMap((scenario) => (scenario.pass_k === null ? [] : [scenario.pass_k]))),
  }
}
