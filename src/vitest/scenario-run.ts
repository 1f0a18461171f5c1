// What the matchers grade: one executed scenario, its evaluator-only expectations and what was observed. Built by
// the liveSession fixture; never shown to the assistant under test.

import type { MultiTurnExecution, SingleTurnExecution } from '../phases/engine/execution.ts'
import type { StageFailure } from '../phases/engine/stage.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import type { ExpectedOutcome } from '../scenarios/index.ts'
import type { LiveEvalsTaskMeta, MatcherGrade } from './meta.ts'
import type { AssistantArchitecture } from './settings.ts'

interface ScenarioRunBase {
  scenarioId: string
  architecture: AssistantArchitecture
  expected: ExpectedOutcome
  /** The infrastructure failure that ended the execution, if any. */
  failure: StageFailure | null
  row: ResultItem
  /** Absolute path of the details JSON when it was written (the verdict adds its part to it). */
  detailsPath: string | null
}

/** What was observed and graded: one request (CRAWL, WALK) or a whole conversation (RUN); null when nothing was. */
type GradedPart<Execution> = Pick<Execution, 'interaction' & keyof Execution> & {
  [Key in 'observation' | 'grade']: Key extends keyof Execution ? Execution[Key] : never
}

export type SingleTurnRun = ScenarioRunBase & GradedPart<SingleTurnExecution>
export type MultiTurnRun = ScenarioRunBase & GradedPart<MultiTurnExecution>
export type ScenarioRun = SingleTurnRun | MultiTurnRun

/** The run of an execution, keeping its interaction, observation and grade together. */
export function scenarioRunOf(
  base: ScenarioRunBase,
  execution:
    | Pick<SingleTurnExecution, 'interaction' | 'observation' | 'grade'>
    | Pick<MultiTurnExecution, 'interaction' | 'observation' | 'grade'>,
): ScenarioRun {
  return execution.interaction === 'single_turn'
    ? { ...base, interaction: 'single_turn', observation: execution.observation, grade: execution.grade }
    : { ...base, interaction: 'multi_turn', observation: execution.observation, grade: execution.grade }
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
