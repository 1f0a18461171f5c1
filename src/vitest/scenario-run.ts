// What the matchers grade: one executed scenario, its evaluator-only expectations and what was observed. Built by
// the liveSession fixture; never shown to the assistant under test.

import type { SingleTurnGrade } from '../grading/single-turn.ts'
import type { SingleTurnObservation } from '../observability/observation.ts'
import type { StageFailure } from '../phases/engine/stage.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import type { ExpectedOutcome } from '../scenarios/index.ts'
import type { LiveEvalsTaskMeta, MatcherGrade } from './meta.ts'
import type { AssistantArchitecture } from './settings.ts'

export interface ScenarioRun {
  scenarioId: string
  architecture: AssistantArchitecture
  expected: ExpectedOutcome
  /** null when the execution failed before anything was observed. */
  observation: SingleTurnObservation | null
  grade: SingleTurnGrade | null
  /** The infrastructure failure that ended the execution, if any. */
  failure: StageFailure | null
  row: ResultItem
  /** Absolute path of the details JSON when it was written (the verdict adds its part to it). */
  detailsPath: string | null
}

const taskMetaOfRun = new WeakMap<ScenarioRun, LiveEvalsTaskMeta>()

/** Ties a run to its test's meta, so a matcher records its grade on the right test even under concurrency. */
export function bindRunToMeta(run: ScenarioRun, meta: LiveEvalsTaskMeta): void {
  taskMetaOfRun.set(run, meta)
}

export function recordGrade(run: ScenarioRun, grade: MatcherGrade): void {
  taskMetaOfRun.get(run)?.grades.push(grade)
}

export function isScenarioRun(value: unknown): value is ScenarioRun {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ScenarioRun).scenarioId === 'string' &&
    'expected' in value &&
    'observation' in value &&
    'grade' in value
  )
}
