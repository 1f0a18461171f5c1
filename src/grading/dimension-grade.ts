// The shape shared by deterministic and semantic dimension grades.

export type DimensionStatus = 'passed' | 'failed' | 'not_applicable' | 'not_assessed'

export interface DimensionGrade {
  status: DimensionStatus
  /** null when the dimension was not applicable or not assessed: unknown is never false. */
  passed: boolean | null
  /** 1 or 0 for deterministic dimensions; null when not applicable or not assessed. */
  score: number | null
  rationale: string
  evidence: Record<string, unknown>
}

export function decidedDimension(
  passed: boolean,
  rationale: string,
  evidence: Record<string, unknown>,
): DimensionGrade {
  return { status: passed ? 'passed' : 'failed', passed, score: passed ? 1 : 0, rationale, evidence }
}

export function notApplicableDimension(rationale: string): DimensionGrade {
  return { status: 'not_applicable', passed: null, score: null, rationale, evidence: {} }
}

export function notAssessedDimension(rationale: string): DimensionGrade {
  return { status: 'not_assessed', passed: null, score: null, rationale, evidence: {} }
}
