// One judge per dimension, written as `createJudge({ name, dimension, assess })`: `assess` asks some backend, and
// the judge holds it to the rubric. A score off the scale is refused (never rounded) and every failure becomes a
// SemanticJudgeError naming the judge, so a broken judge reads as infrastructure, not as a low grade.

import type { ModelUsageEvent } from '../../models/usage.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import { SemanticJudgeError } from './errors.ts'
import type { JudgeRequest, JudgeSample, JudgeUsageEvent, JudgeVerdict } from './judge-types.ts'
import { rubricScoreProblem } from './score.ts'

/** What `assess` returns: a verdict whose score is still unchecked, and the usage of getting it. */
export interface Assessment {
  verdict: Omit<JudgeVerdict, 'score'> & { score: unknown }
  usage: ModelUsageEvent
  detail?: Record<string, unknown>
}

export interface JudgeDefinition {
  name: string
  dimension: SemanticDimension
  assess: (request: JudgeRequest) => Promise<Assessment>
}

export interface Judge {
  readonly name: string
  readonly dimension: SemanticDimension
  judge(request: JudgeRequest): Promise<{ sample: JudgeSample; usage: JudgeUsageEvent }>
}

export function createJudge(definition: JudgeDefinition): Judge {
  const { name, dimension } = definition
  const where = `Semantic judge "${name}" (${dimension})`
  return {
    name,
    dimension,
    async judge(request) {
      let assessed: Assessment
      try {
        assessed = await definition.assess(request)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        throw new SemanticJudgeError(`${where} failed: ${message}`, { judge: name, dimension, cause: error })
      }
      const usage: JudgeUsageEvent = { ...assessed.usage, dimension, repetition: request.repetition }
      const { verdict } = assessed
      const problem = rubricScoreProblem(verdict.score)
      if (problem !== null) {
        throw new SemanticJudgeError(`${where} gave an invalid judgment: ${problem}.`, {
          judge: name,
          dimension,
          usage_events: [usage],
        })
      }
      const sample: JudgeSample = {
        score: verdict.score as JudgeVerdict['score'],
        passed: verdict.passed,
        rationale: verdict.rationale,
        evidence: [...verdict.evidence],
        task_completed: verdict.task_completed,
        dimension,
        repetition: request.repetition,
        judge: name,
        cached: usage.cached,
        detail: assessed.detail ?? {},
      }
      return { sample, usage }
    },
  }
}
