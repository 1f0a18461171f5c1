// A judge that could not judge is an infrastructure failure of the evaluation at stage `semantic_judge`, never a
// verdict on the assistant. The error names the judge and the dimension, and keeps the usage already spent so a
// failed run still reports what the judge cost.

import type { SemanticDimension } from '../semantic-applicability.ts'
import type { JudgeUsageEvent } from './judge-types.ts'

export const SEMANTIC_JUDGE_STAGE = 'semantic_judge'

export class SemanticJudgeError extends Error {
  readonly stage = SEMANTIC_JUDGE_STAGE
  readonly judge: string | null
  readonly dimension: SemanticDimension | null
  /** Usage of the requests that did complete before the failure. */
  usage_events: JudgeUsageEvent[]

  constructor(
    message: string,
    details: {
      judge?: string | null
      dimension?: SemanticDimension | null
      cause?: unknown
      usage_events?: JudgeUsageEvent[]
    } = {},
  ) {
    super(message, { cause: details.cause })
    this.name = 'SemanticJudgeError'
    this.judge = details.judge ?? null
    this.dimension = details.dimension ?? null
    this.usage_events = details.usage_events ?? []
  }
}

/** The row error of a scenario whose judge failed: `{ stage: "semantic_judge", message }`. */
export function semanticJudgeFailure(error: unknown): {
  stage: typeof SEMANTIC_JUDGE_STAGE
  message: string
} {
  const message = error instanceof Error ? error.message : String(error)
  return { stage: SEMANTIC_JUDGE_STAGE, message }
}
