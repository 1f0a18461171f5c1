// Applying the judge's grades to a deterministic verdict (pure). Only task_understanding can change the outcome,
// and only toward failing: the final pass needs the deterministic pass and task_understanding's pass, so partial
// credit never rescues a failed deterministic requirement. The other dimensions are diagnostic. When
// task_understanding was not assessed (offline, disabled, refused) nothing changes and this returns null.

import { roundToFourPlaces } from '../../metrics/rounding.ts'
import { type SemanticQuality, semanticQualityFromScores } from '../../metrics/semantic-quality.ts'
import type { OutcomeAssessment, OutcomeCheck } from '../outcome.ts'
import type { JudgedDimension } from './aggregate.ts'
import type { SemanticJudgement } from './judge-scenario.ts'

/** The deterministic verdict the judge is applied to (a SingleTurnGrade has these fields). */
export interface DeterministicVerdict {
  task_completed: boolean
  requirements_satisfied: boolean
  assessment: OutcomeAssessment
}

export interface AppliedSemanticGrades {
  task_completed: boolean
  requirements_satisfied: boolean
  deterministic_task_completed: boolean
  deterministic_requirements_satisfied: boolean
  /** task_understanding's majority pass. */
  semantic_task_completed: boolean
  /** Every assessed dimension passed: diagnostic only, it decides nothing. */
  semantic_requirements_satisfied: boolean
  /** task_understanding's score. */
  semantic_outcome_score: number | null
  /** The mean of every assessed dimension's score (the row's `semantic_quality`). */
  semantic_quality: SemanticQuality
  completion_source: 'llm'
  rubric_metrics: {
    task_understanding: { score: number | null }
    task_completion: { completed: boolean | null }
    /** Mean of the assessed dimensions other than task_understanding, when there are any. */
    semantic_quality?: { score: number }
  }
  /** The assessment with its semantic_outcome check decided and required. */
  assessment: OutcomeAssessment
}

export function applySemanticGrades(
  deterministic: DeterministicVerdict,
  judgement: SemanticJudgement,
): AppliedSemanticGrades | null {
  const understanding = judgement.dimensions.task_understanding
  if (!judgement.assessed || understanding === undefined || understanding.status === 'not_assessed')
    return null
  const deterministicPass = deterministic.task_completed && deterministic.requirements_satisfied
  const semanticCompleted = deterministicPass && understanding.passed === true
  const assessment = withSemanticOutcome(deterministic.assessment, semanticCompleted)
  const passed = semanticCompleted && assessment.passed
  const scores = semanticScores(judgement, understanding)
  return {
    task_completed: passed,
    requirements_satisfied: passed,
    deterministic_task_completed: deterministic.task_completed,
    deterministic_requirements_satisfied: deterministic.requirements_satisfied,
    semantic_task_completed: understanding.passed === true,
    semantic_requirements_satisfied: scores.semantic_requirements_satisfied,
    semantic_outcome_score: scores.semantic_outcome_score,
    semantic_quality: scores.semantic_quality,
    completion_source: 'llm',
    rubric_metrics: scores.rubric_metrics,
    assessment,
  }
}

/** What the judge's scores say, whatever decided the verdict: shared by single-turn and RUN application. */
export function semanticScores(
  judgement: SemanticJudgement,
  understanding: JudgedDimension,
): Pick<
  AppliedSemanticGrades,
  'semantic_requirements_satisfied' | 'semantic_outcome_score' | 'semantic_quality' | 'rubric_metrics'
> {
  const assessed = Object.values(judgement.dimensions).filter(
    (dimension): dimension is JudgedDimension & { score: number } =>
      dimension !== undefined && dimension.status !== 'not_assessed' && dimension.score !== null,
  )
  const others = assessed.filter((dimension) => dimension.dimension !== 'task_understanding')
  return {
    semantic_requirements_satisfied: assessed.every((dimension) => dimension.passed === true),
    semantic_outcome_score: understanding.score,
    semantic_quality: semanticQualityFromScores(
      Object.fromEntries(assessed.map((dimension) => [dimension.dimension, dimension.score])),
    ),
    rubric_metrics: {
      task_understanding: { score: understanding.score },
      task_completion: { completed: judgement.task_completion.completed },
      ...(others.length > 0
        ? {
            semantic_quality: {
              score: roundToFourPlaces(others.reduce((sum, item) => sum + item.score, 0) / others.length),
            },
          }
        : {}),
    },
  }
}

/** The assessment re-decided with a semantic verdict: its semantic_outcome check becomes required and decided. */
function withSemanticOutcome(assessment: OutcomeAssessment, completed: boolean): OutcomeAssessment {
  const checks: OutcomeCheck[] = assessment.checks.map((item) =>
    item.id === 'semantic_outcome'
      ? {
          ...item,
          status: completed ? 'passed' : 'failed',
          required: true,
          reason: 'The semantic judge must find the task completed.',
        }
      : item,
  )
  const failed = checks.filter((item) => item.required && item.status === 'failed').map((item) => item.id)
  return {
    passed: failed.length === 0,
    source: 'semantic_judge',
    rationale:
      failed.length === 0 ? 'All required checks passed.' : `Required checks failed: ${failed.join(', ')}.`,
    checks,
  }
}
