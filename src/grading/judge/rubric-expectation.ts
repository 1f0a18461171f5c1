// What a test may ask of the semantic judge's grades (the `toSatisfyRubric` matcher), decided here as a pure
// function of the grades so the matcher, `live-evals grade` and tests agree. A rubric nobody judged is never
// satisfied by default: offline, or with grading disabled, the matcher fails with "the semantic judge did not run"
// unless the test opts out with `allowUnjudged`.
import type { SemanticQuality } from '../../metrics/semantic-quality.ts'
import type { DimensionGrade } from '../dimension-grade.ts'
import { SEMANTIC_DIMENSIONS, type SemanticDimension } from '../semantic-applicability.ts'

/**
 * What `toSatisfyRubric` asks (rubric voice-semantic-v2). Without `minimum` or `dimensions` it asks what decides a
 * row: task_understanding was assessed and passed. Scores are the judge's means per dimension, from 0 to 1.
 */
export interface RubricExpectation {
  /** The least `semantic_quality` (the mean of the assessed dimensions) that passes. */
  minimum?: number
  /** The least score per dimension; a named dimension must apply to the scenario and be assessed. */
  dimensions?: Partial<Record<SemanticDimension, number>>
  /**
   * Pass, saying so, when no judge ran (offline, or grading disabled). Default false: a rubric nobody judged is
   * not satisfied, so an offline run cannot pass the matcher vacuously.
   */
  allowUnjudged?: boolean
}

export interface RubricShortfall {
  /** `rubric:<dimension>`, `rubric:semantic_quality` or `rubric:not_judged`. */
  id: string
  reason: string
}

export interface RubricVerdict {
  passed: boolean
  /** True when no dimension was judged (whatever allowUnjudged said). */
  unjudged: boolean
  shortfalls: RubricShortfall[]
  summary: string
}

function checkedThreshold(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new RangeError(`toSatisfyRubric: ${name} must be a number from 0 to 1 (got ${String(value)})`)
  }
  return value
}

/** Refuses an expectation that could only be a typo (unknown dimension, threshold outside 0..1), naming it. */
function checkedExpectation(expectation: RubricExpectation): RubricExpectation {
  if (typeof expectation !== 'object' || expectation === null) {
    throw new TypeError('toSatisfyRubric: the expectation must be an object such as { minimum: 0.75 }')
  }
  if (expectation.minimum !== undefined) checkedThreshold('minimum', expectation.minimum)
  for (const [dimension, value] of Object.entries(expectation.dimensions ?? {})) {
    if (!(SEMANTIC_DIMENSIONS as readonly string[]).includes(dimension)) {
      throw new RangeError(
        `toSatisfyRubric: unknown dimension "${dimension}"; the rubric's dimensions are ${SEMANTIC_DIMENSIONS.join(', ')}`,
      )
    }
    checkedThreshold(`dimensions.${dimension}`, value)
  }
  return expectation
}

const judged = (grade: DimensionGrade) => grade.status === 'passed' || grade.status === 'failed'

function dimensionShortfall(
  dimension: SemanticDimension,
  grade: DimensionGrade,
  least: number | null,
): RubricShortfall | null {
  const id = `rubric:${dimension}`
  if (grade.status === 'not_applicable') return { id, reason: `${dimension} does not apply to this scenario` }
  if (!judged(grade) || grade.score === null)
    return { id, reason: `${dimension} was not assessed: ${grade.rationale}` }
  if (least === null) {
    return grade.passed === true
      ? null
      : { id, reason: `${dimension} failed (score ${grade.score}): ${grade.rationale}` }
  }
  return grade.score >= least
    ? null
    : { id, reason: `${dimension} scored ${grade.score}, below ${least}: ${grade.rationale}` }
}

export function rubricVerdict(
  grades: Readonly<Record<SemanticDimension, DimensionGrade>>,
  quality: SemanticQuality,
  expectation: RubricExpectation = {},
): RubricVerdict {
  const asked = checkedExpectation(expectation)
  const unjudged = !Object.values(grades).some(judged)
  if (unjudged) {
    const allowed = asked.allowUnjudged === true
    return {
      passed: allowed,
      unjudged,
      shortfalls: allowed
        ? []
        : [
            {
              id: 'rubric:not_judged',
              reason:
                'the semantic judge did not run (offline, grading disabled, no judge configured, or nothing to ' +
                `judge: ${grades.task_understanding.rationale}), so nothing shows the rubric is satisfied; pass ` +
                '{ allowUnjudged: true } to accept an unjudged run',
            },
          ],
      summary: allowed
        ? 'the semantic judge did not run (allowed by allowUnjudged)'
        : 'the semantic judge did not run',
    }
  }
  const shortfalls: RubricShortfall[] = []
  const thresholds = Object.entries(asked.dimensions ?? {}) as [SemanticDimension, number][]
  if (asked.minimum === undefined && thresholds.length === 0) {
    const shortfall = dimensionShortfall('task_understanding', grades.task_understanding, null)
    if (shortfall !== null) shortfalls.push(shortfall)
  }
  for (const [dimension, least] of thresholds) {
    const shortfall = dimensionShortfall(dimension, grades[dimension], least)
    if (shortfall !== null) shortfalls.push(shortfall)
  }
  if (asked.minimum !== undefined) {
    if (quality.score === null) {
      shortfalls.push({
        id: 'rubric:semantic_quality',
        reason: 'semantic_quality is unknown (no dimension scored)',
      })
    } else if (quality.score < asked.minimum) {
      shortfalls.push({
        id: 'rubric:semantic_quality',
        reason: `semantic_quality is ${quality.score}, below ${asked.minimum}`,
      })
    }
  }
  return {
    passed: shortfalls.length === 0,
    unjudged,
    shortfalls,
    summary:
      shortfalls.length === 0
        ? `the rubric is satisfied (semantic_quality ${quality.score})`
        : `the rubric is not satisfied: ${shortfalls.map((item) => item.id).join(', ')}`,
  }
}
