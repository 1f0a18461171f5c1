// Condition robustness from a run's rows: WALK rows are grouped by the scenario their recording was made from
// (`recording.metadata.generation.source_scenario_id`, else the row's own id), and a group is robust only when
// every row of it passed, under every condition and in every trial. A row that did not run (an infrastructure
// error: a missing or refused recording, a failed session) has no outcome: its group is not robust when another row
// failed, and unknown (null) otherwise. Failed rows carry their recording too (the reporter's rowOfTest, from the
// test's meta), so a recording that never ran still counts under its condition.

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
      not_run: 0,
    }
    entry.rows++
    if (row.status === 'passed') entry.passed++
    if (row.status === 'infrastructure_error') entry.not_run = (entry.not_run ?? 0) + 1
    group.set(entryKey, entry)
  }
  const scenarios: SourceRobustness[] = [...groups].map(([source_scenario_id, group]) => {
    const outcomes = [...group.values()]
    const notRunOf = (outcome: ConditionOutcome) => outcome.not_run ?? 0
    const conditionsWhere = (holds: (outcome: ConditionOutcome) => boolean) => [
      ...new Set(outcomes.filter(holds).map((outcome) => outcome.condition)),
    ]
    const failed = conditionsWhere((outcome) => outcome.passed + notRunOf(outcome) < outcome.rows)
    const notRun = conditionsWhere((outcome) => notRunOf(outcome) > 0)
    return {
      source_scenario_id,
      robust: failed.length > 0 ? false : notRun.length > 0 ? null : true,
      conditions: outcomes,
      failed_conditions: failed,
      not_run_conditions: notRun,
    }
  })
  const distinctConditions = (scenario: SourceRobustness) =>
    new Set(scenario.conditions.map((outcome) => outcome.condition)).size
  if (!scenarios.some((scenario) => distinctConditions(scenario) >= 2)) return null
  const robust = scenarios.filter((scenario) => scenario.robust === true).length
  const unknown = scenarios.filter((scenario) => scenario.robust === null).length
  const known = scenarios.length - unknown
  return {
    sources: scenarios.length,
    robust,
    unknown,
    robust_rate: known === 0 ? null : robust / known,
    conditions,
    scenarios,
  }
}
