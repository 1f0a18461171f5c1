import { describe, expect, it } from 'vitest'
import { cachedUsageEvent } from '../../models/usage.ts'
import { createJudge } from './create-judge.ts'
import { buildJudgeEvidence } from './evidence.ts'
import { bookingObserved, judgeBooking } from './judge.test-helpers.ts'
import { RUBRIC_SCORES } from './score.ts'

const usage = cachedUsageEvent({ source: 'evaluation_judge', purpose: 'test', model: 'm' })
const evidence = buildJudgeEvidence(judgeBooking(), bookingObserved())

function judgeGiving(score: unknown) {
  return createJudge({
    name: 'fixed',
    dimension: 'grounded_communication',
    assess: async () => ({
      verdict: { score, passed: true, rationale: 'r', evidence: [], task_completed: null },
      usage,
    }),
  })
}

describe('createJudge', () => {
  it.each(RUBRIC_SCORES)('accepts the rubric score %s exactly as given', async (score) => {
    const { sample, usage: recorded } = await judgeGiving(score).judge({ evidence, repetition: 2 })
    expect(sample).toMatchObject({
      score,
      dimension: 'grounded_communication',
      repetition: 2,
      judge: 'fixed',
    })
    expect(recorded).toMatchObject({ dimension: 'grounded_communication', repetition: 2 })
  })

  it.each([0.1, 0.49, 0.3, 1.25, -0.25, Number.NaN, Number.POSITIVE_INFINITY, true, '0.75', null, undefined])(
    'refuses %s instead of rounding it, naming the judge',
    async (score) => {
      const error = await judgeGiving(score)
        .judge({ evidence, repetition: 0 })
        .catch((caught: unknown) => caught)
      expect(error).toMatchObject({ name: 'SemanticJudgeError', stage: 'semantic_judge', judge: 'fixed' })
      expect((error as Error).message).toMatch(
        /^Semantic judge "fixed" \(grounded_communication\) gave an invalid judgment: score .* is not one of 0, 0.25, 0.5, 0.75, 1/,
      )
    },
  )

  it('turns a failing backend into a SemanticJudgeError with the cause', async () => {
    const cause = new Error('socket hang up')
    const judge = createJudge({
      name: 'broken',
      dimension: 'task_understanding',
      assess: () => Promise.reject(cause),
    })
    const error = await judge.judge({ evidence, repetition: 0 }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({
      stage: 'semantic_judge',
      message: 'Semantic judge "broken" (task_understanding) failed: socket hang up',
      cause,
    })
  })
})
