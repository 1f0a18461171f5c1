// The grades of a conversation that was never judged because it did not complete: every dimension that was waiting
// for a judge (not_assessed) says why, the rest keep their grade. One wording for every phase.

import type { DimensionGrade } from '../dimension-grade.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'

export function notJudgedGrades(
  grades: Readonly<Record<SemanticDimension, DimensionGrade>>,
  terminationReason: string,
): Record<SemanticDimension, DimensionGrade> {
  const rationale = `Not judged: the conversation did not complete (${terminationReason}).`
  return Object.fromEntries(
    Object.entries(grades).map(([name, grade]) => [
      name,
      grade.status === 'not_assessed' ? { ...grade, rationale } : grade,
    ]),
  ) as Record<SemanticDimension, DimensionGrade>
}
