// Condition robustness from a run's rows: WALK rows are grouped by the scenario their recording was made from
// (`recording.metadata.generation.source_scenario_id`, else the row's own id), and a group is robust only when
// every row of it passed, under every condition and in every trial.

import type { ConditionRobustness, SourceRobustness } from './extensions/condition-robustness.ts'
import type { ResultItem } from './result-schema.ts'

const UNKNOWN_CONDITION = 'unknown'

const objectAt = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null

const textAt = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

export interface RowCondition {
  source_scenario_id: string
  condition: string
}

/** Where a row stands: its source scenario and condition; null for a row without a recording (CRAWL, RUN). */
export function conditionOf(row: Pick<ResultItem, 'scenario_id' | 'recording'>): RowCondition | null {
  const recording = objectAt(row.recording)
  if (recording === null) return null
  const generation = objectAt(objectAt(recording.metadata)?.generation)
  return {
    source_scenario_id: textAt(generation?.source_scenario_id) ?? row.scenario_id,
    condition: textAt(recording.condition) ?? UNKNOWN_CONDITION,
  }
}

type ConditionOutcome = SourceRobustness['conditions'][number]

/** The `condition_robustness` run extension; null unless some source scenario ran under two or more conditions. */
export function summarizeConditionRobustness(rows: readonly ResultItem[]): ConditionRobustness | null {
  const groups = new Map<string, Map<string, ConditionOutcome>>()
  const conditions: string[] = []
  for (const row of rows) {
    const where = conditionOf(row)
    if (where === null) continue
    if (!conditions.includes(where.condition)) conditions.push(where.condition)
    const group = groups.get(where.source_scenario_id) ?? new Map<string, ConditionOutcome>()
    groups.set(where.source_scenario_id, group)
    // One entry per (condition, recording): two recordings under one condition stay apart, trials add up.
    const entryKey = JSON.stringify([where.condition, row.scenario_id])
    const entry = group.get(entryKey) ?? {
      condition: where.condition,
      scenario_id: row.scenario_id,
      rows: 0,
      passed: 0,
    }
    entry.rows++
    if (row.status === 'passed') entry.passed++
    group.set(entryKey, entry)
  }
  const scenarios: SourceRobustness[] = [...groups].map(([source_scenario_id, group]) => {
    const outcomes = [...group.values()]
    const failed = outcomes
      .filter((outcome) => outcome.passed < outcome.rows)
      .map((outcome) => outcome.condition)
    return {
      source_scenario_id,
      robust: failed.length === 0,
      conditions: outcomes,
      failed_conditions: [...new Set(failed)],
    }
  })
  const distinctConditions = (scenario: SourceRobustness) =>
    new Set(scenario.conditions.map((outcome) => outcome.condition)).size
  if (!scenarios.some((scenario) => distinctConditions(scenario) >= 2)) return null
  const robust = scenarios.filter((scenario) => scenario.robust).length
  return { sources: scenarios.length, robust, robust_rate: robust / scenarios.length, conditions, scenarios }
}
