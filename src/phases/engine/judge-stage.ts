// The judge half of the assess stage: the semantic judge over what was observed, its grades applied to the
// deterministic verdict. Shared by the engine (after a conversation) and `live-evals grade` (over saved
// artifacts), so a re-graded row is decided by exactly the rules a fresh run uses.
//
// - No judge options (offline, grading disabled, nothing configured): the deterministic grade stands and its
//   applicable semantic dimensions stay not_assessed with null scores.
// - A conversation that did not complete (response timeout): the same, nothing is sent (there is no answer to
//   judge, and the row fails on conversation_completed whatever a judge said).
// - The judge answered: its dimension grades replace the not_assessed ones, and applySemanticGrades decides the
//   verdict (only task_understanding can turn a deterministic pass into a fail; semantic_quality is the mean of
//   the assessed dimensions).
// - The judge failed: the deterministic grade stands and `failure` names stage semantic_judge; the record stage
//   turns that into an infrastructure_error row (the evidence is incomplete, the assistant is not to blame).
//   The usage of the judge requests that did complete is kept.
// - A re-grade from a cassette whose recording holds no equal judge request (src/cassettes/regrade): not a
//   failure; the applicable dimensions stay not_assessed, their rationale says what changed, no score is made up.

import {
  type AppliedSemanticGrades,
  applySemanticGrades,
  type JudgeObserved,
  type JudgeScenarioFacts,
  type JudgeUsageEvent,
  judgeScenario,
  SemanticJudgeError,
  type SemanticJudgement,
  type SemanticJudgeOptions,
  semanticJudgeFailure,
} from '../../grading/judge/index.ts'
import { notJudgedGrades, unrejudgedGrade } from '../../grading/judge/not-judged.ts'
import type { SingleTurnGrade } from '../../grading/single-turn.ts'
import type { StageFailure } from './stage.ts'

export interface SemanticAssessment {
  /** What the judge decided; null when no judge was configured or it failed. */
  judgement: SemanticJudgement | null
  /** The judge's grades applied to the deterministic verdict; null unless task_understanding was assessed. */
  applied: AppliedSemanticGrades | null
  /** Stage semantic_judge when the judge could not judge. */
  failure: StageFailure | null
  /** Every judge request's usage (cached answers included, at zero cost); never the assistant's consumption. */
  usage_events: JudgeUsageEvent[]
}

/** No judge ran: nothing decided, nothing failed, nothing spent. */
export const NO_SEMANTIC_ASSESSMENT: SemanticAssessment = Object.freeze({
  judgement: null,
  applied: null,
  failure: null,
  usage_events: [],
}) as SemanticAssessment

export interface JudgedGrade {
  /** The grade every later stage reads: the deterministic one with the judge's grades applied. */
  grade: SingleTurnGrade
  semantic: SemanticAssessment
}

export async function judgeGrade(
  facts: JudgeScenarioFacts,
  deterministic: SingleTurnGrade,
  observed: JudgeObserved,
  options: SemanticJudgeOptions | null,
): Promise<JudgedGrade> {
  if (options === null) return { grade: deterministic, semantic: { ...NO_SEMANTIC_ASSESSMENT } }
  // A conversation that never completed (a response timeout) has no answer to judge, and no judgment could make it
  // pass: nothing is sent, and the applicable dimensions say why they were not assessed.
  if (!deterministic.base.conversation_completed) {
    const reason = observed.observation.termination_reason ?? 'unknown'
    return {
      grade: { ...deterministic, semantic_grades: notJudgedGrades(deterministic.semantic_grades, reason) },
      semantic: { ...NO_SEMANTIC_ASSESSMENT },
    }
  }
  let judgement: SemanticJudgement
  try {
    judgement = await judgeScenario(facts, observed, options)
  } catch (error) {
    // A re-grade from a recording that holds no equal judge request: not judged, and the grades say why.
    const unrejudged = unrejudgedGrade(error, deterministic)
    if (unrejudged !== null) return { grade: unrejudged, semantic: { ...NO_SEMANTIC_ASSESSMENT } }
    // A judge failure of any kind (an option it refused included) is the evaluation's, never the assistant's.
    const failure = semanticJudgeFailure(error)
    const usage_events = error instanceof SemanticJudgeError ? error.usage_events : []
    return {
      grade: deterministic,
      semantic: { judgement: null, applied: null, failure, usage_events },
    }
  }
  const applied = applySemanticGrades(deterministic, judgement)
  const grade: SingleTurnGrade = {
    ...deterministic,
    semantic_grades: judgement.grades,
    ...(applied === null
      ? {}
      : {
          task_completed: applied.task_completed,
          requirements_satisfied: applied.requirements_satisfied,
          assessment: applied.assessment,
          semantic_quality: applied.semantic_quality,
        }),
  }
  return {
    grade,
    semantic: { judgement, applied, failure: null, usage_events: judgement.usage_events },
  }
}

/** The judge's part of the details JSON (`semantic_judge`): what it decided per dimension, or why it could not. */
export function semanticJudgeDetails(semantic: SemanticAssessment): Record<string, unknown> | null {
  const { judgement, applied, failure } = semantic
  if (judgement === null && failure === null) return null
  return {
    assessed: judgement?.assessed ?? false,
    backend: judgement?.backend ?? null,
    judge_model: judgement?.judge_model ?? null,
    rubric_version: judgement?.rubric_version ?? null,
    dimensions: judgement?.dimensions ?? {},
    task_completion: judgement?.task_completion ?? { completed: null },
    naturalness: judgement?.naturalness ?? null,
    applied:
      applied === null
        ? null
        : {
            deterministic_task_completed: applied.deterministic_task_completed,
            deterministic_requirements_satisfied: applied.deterministic_requirements_satisfied,
            semantic_task_completed: applied.semantic_task_completed,
            semantic_requirements_satisfied: applied.semantic_requirements_satisfied,
            semantic_outcome_score: applied.semantic_outcome_score,
            completion_source: applied.completion_source,
          },
    error: failure,
  }
}
