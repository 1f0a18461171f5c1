// The shapes judges exchange: one judgment (a sample), the usage it cost, and what a judge is asked.

import type { ModelUsageEvent } from '../../models/usage.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import type { RubricScore } from './score.ts'

/** What a judge decides about one dimension. */
export interface JudgeVerdict {
  score: RubricScore
  passed: boolean
  rationale: string
  evidence: string[]
  /** task_understanding's vote on whether the caller's task was achieved; null for the other dimensions. */
  task_completed: boolean | null
}

/** A judge request's usage, tagged with what it judged. A Decisions request covers several dimensions: null. */
export interface JudgeUsageEvent extends ModelUsageEvent {
  dimension: SemanticDimension | null
  repetition: number
}

export interface JudgeSample extends JudgeVerdict {
  dimension: SemanticDimension
  /** Which repetition this is, from 0; repetitions are independent judgments (and cache entries). */
  repetition: number
  judge: string
  cached: boolean
  /** Backend facts beside the verdict: the Decisions probabilities and raw answer, the response id. */
  detail: Record<string, unknown>
}

export interface JudgeRequest {
  /** The evidence this dimension is shown (see dimension-evidence.ts). */
  evidence: Readonly<Record<string, unknown>>
  repetition: number
  signal?: AbortSignal | undefined
}
