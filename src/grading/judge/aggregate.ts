// From the samples of one dimension (one per repetition) to its judged result: the mean score, the majority pass,
// and the spread between repetitions beside the mean, so judge noise is visible instead of averaged away. A
// dimension with any unanswered repetition (a refusal) is not assessed: a partial set is not the configured judgment.

import { roundToFourPlaces } from '../../metrics/rounding.ts'
import { type DimensionGrade, notApplicableDimension } from '../dimension-grade.ts'
import { SEMANTIC_DIMENSIONS, type SemanticDimension } from '../semantic-applicability.ts'
import type { JudgeSample } from './judge-types.ts'
import { RUBRIC_VERSION } from './rubric.ts'

export interface JudgedDimension {
  dimension: SemanticDimension
  status: 'passed' | 'failed' | 'not_assessed'
  /** Mean of the sample scores (4 places); may fall between quarter points. Null when not assessed. */
  score: number | null
  /** Strict majority of the samples' pass votes; null when not assessed. */
  passed: boolean | null
  /** Highest minus lowest sample score; 0 with one repetition, null when not assessed. */
  spread: number | null
  /** task_understanding: strict majority of the task-completed votes; null when any vote is missing. */
  task_completed: boolean | null
  samples: JudgeSample[]
  /** Why the judge could not assess the dimension (for example a refusal); empty otherwise. */
  judge_errors: string[]
  /** Decisions backend: the mean probability-weighted score and confidence; null for the Responses judge. */
  probability_weighted_score: number | null
  confidence: number | null
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
const majority = (votes: readonly boolean[]) => votes.filter(Boolean).length * 2 > votes.length

function meanOfDetail(samples: readonly JudgeSample[], field: string): number | null {
  const values = samples.map((sample) => sample.detail[field])
  if (values.length === 0 || !values.every((value) => typeof value === 'number')) return null
  return roundToFourPlaces(mean(values as number[]))
}

export function aggregateDimension(
  dimension: SemanticDimension,
  samples: readonly JudgeSample[],
  judgeErrors: readonly string[] = [],
): JudgedDimension {
  if (samples.length === 0 || judgeErrors.length > 0) {
    return {
      dimension,
      status: 'not_assessed',
      score: null,
      passed: null,
      spread: null,
      task_completed: null,
      samples: [...samples],
      judge_errors: [...judgeErrors],
      probability_weighted_score: null,
      confidence: null,
    }
  }
  const scores = samples.map((sample) => sample.score)
  const passed = majority(samples.map((sample) => sample.passed))
  const votes = samples.map((sample) => sample.task_completed)
  return {
    dimension,
    status: passed ? 'passed' : 'failed',
    score: roundToFourPlaces(mean(scores)),
    passed,
    spread: Math.max(...scores) - Math.min(...scores),
    task_completed: votes.every((vote) => vote !== null) ? majority(votes as boolean[]) : null,
    samples: [...samples],
    judge_errors: [],
    probability_weighted_score: meanOfDetail(samples, 'probability_weighted_score'),
    confidence: meanOfDetail(samples, 'confidence'),
  }
}

/** The reported grade of every dimension: judged ones from their result, the rest not applicable. */
export function semanticDimensionGrades(
  judged: Partial<Record<SemanticDimension, JudgedDimension>>,
  judgeModel: string,
): Record<SemanticDimension, DimensionGrade> {
  const grades = {} as Record<SemanticDimension, DimensionGrade>
  for (const dimension of SEMANTIC_DIMENSIONS) {
    const result = judged[dimension]
    grades[dimension] =
      result === undefined
        ? notApplicableDimension('This rubric dimension does not apply to the scenario.')
        : dimensionGrade(result, judgeModel)
  }
  return grades
}

function dimensionGrade(result: JudgedDimension, judgeModel: string): DimensionGrade {
  const rationale =
    result.status === 'not_assessed'
      ? `Not assessed: ${result.judge_errors.join(' ') || 'the judge gave no judgment.'}`
      : result.samples.map((sample) => sample.rationale).join('\n')
  return {
    status: result.status,
    passed: result.passed,
    score: result.score,
    rationale,
    evidence: {
      judge_model: judgeModel,
      rubric_version: RUBRIC_VERSION,
      repetitions: result.samples.length,
      score_spread: result.spread,
      samples: result.samples.map(
        ({ score, passed, rationale: why, evidence, task_completed, cached, detail }) => ({
          score,
          passed,
          rationale: why,
          support: evidence,
          task_completed,
          cached,
          ...detail,
        }),
      ),
      judge_errors: result.judge_errors,
      probability_weighted_score: result.probability_weighted_score,
      confidence: result.confidence,
    },
  }
}
