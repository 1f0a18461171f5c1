// A re-grade's judge refusal (an API error of type JUDGE_NOT_RECORDED) is found through the errors that wrap it on
// its way out (the model call's, the judge's), and gives its reason; any other failure is a real judge failure.
import { APIError } from 'openai'
import { describe, expect, test } from 'vitest'
import { modelCallErrorFrom } from '../../models/errors.ts'
import { SemanticJudgeError } from './errors.ts'
import { JUDGE_NOT_RECORDED, judgeNotRecordedReason } from './not-judged.ts'

/** The SDK's error for a 409 answer with this body's error, wrapped as the judge wraps a failed model call. */
function judgeFailure(error: { message: string; type: string }): SemanticJudgeError {
  const api = APIError.generate(
    409,
    { error: { ...error, code: null, param: null } },
    undefined,
    new Headers(),
  )
  const call = modelCallErrorFrom(api, { model: 'gpt-5-mini', purpose: 'evaluation_judge/task', attempts: 1 })
  return new SemanticJudgeError('judge failed', { judge: 'responses', cause: call })
}

describe('judgeNotRecordedReason', () => {
  test('the reason of a refusal two wrappers deep', () => {
    const reason = 'the rubric of task_understanding changed'
    expect(judgeNotRecordedReason(judgeFailure({ message: reason, type: JUDGE_NOT_RECORDED }))).toBe(reason)
  })

  test('null for any other failure', () => {
    expect(judgeNotRecordedReason(judgeFailure({ message: 'busy', type: 'server_error' }))).toBeNull()
    expect(judgeNotRecordedReason(new Error('socket hang up'))).toBeNull()
    expect(judgeNotRecordedReason(null)).toBeNull()
  })
})
