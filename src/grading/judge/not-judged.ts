// The grades of a conversation that was not judged: every dimension that was waiting for a judge (not_assessed)
// says why, the rest keep their grade. One wording for every phase, for the two reasons a conversation goes
// unjudged without a judge failure:
// - it did not complete (there is no answer to judge, and no judgment could make it pass);
// - a re-grade from a recording (`live-evals grade --cassettes`, src/cassettes/regrade) found no recorded judge
//   answer for today's judge request: a changed rubric, prompt, model or evidence is never answered with an old
//   score, and a re-grade never asks the network, so the semantic grades stay null and say so.

// The one cause walk (a leaf module with no imports of its own, so grading takes on nothing of the live layer).
import { causesOf } from '../../errors/causes.ts'
import type { DimensionGrade } from '../dimension-grade.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'

/** The error type a re-grade's judge answers with when the recording holds no equal judge request. */
export const JUDGE_NOT_RECORDED = 'live_evals_judge_not_recorded'

type Grades = Readonly<Record<SemanticDimension, DimensionGrade>>

function withRationale(grades: Grades, rationale: string): Record<SemanticDimension, DimensionGrade> {
  return Object.fromEntries(
    Object.entries(grades).map(([name, grade]) => [
      name,
      grade.status === 'not_assessed' ? { ...grade, rationale } : grade,
    ]),
  ) as Record<SemanticDimension, DimensionGrade>
}

export function notJudgedGrades(grades: Grades, terminationReason: string) {
  return withRationale(grades, `Not judged: the conversation did not complete (${terminationReason}).`)
}

/** A re-grade whose judge request the recording does not hold: `reason` says which part changed. */
export function notRejudgedGrades(grades: Grades, reason: string) {
  return withRationale(grades, `Not re-judged: ${reason}`)
}

/**
 * The grade a judge stage keeps when the judge call failed for want of a recorded answer (a re-grade): the
 * deterministic one, its waiting dimensions saying why; null when the call failed otherwise (a real failure).
 */
export function unrejudgedGrade<Grade extends { semantic_grades: Grades }>(
  error: unknown,
  deterministic: Grade,
): Grade | null {
  const reason = judgeNotRecordedReason(error)
  if (reason === null) return null
  return { ...deterministic, semantic_grades: notRejudgedGrades(deterministic.semantic_grades, reason) }
}

/**
 * Why a judge call failed for want of a recorded answer, or null when it failed otherwise. The refusal travels as
 * the API error of one judge request (type JUDGE_NOT_RECORDED), wrapped by the model call and the judge.
 */
export function judgeNotRecordedReason(error: unknown): string | null {
  for (const cause of causesOf(error)) {
    const candidate = cause as { type?: unknown; error?: { message?: unknown } | null }
    if (candidate.type !== JUDGE_NOT_RECORDED) continue
    const message = candidate.error?.message
    return typeof message === 'string' ? message : 'the recording holds no equal judge request'
  }
  return null
}
