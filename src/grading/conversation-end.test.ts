import { describe, expect, test } from 'vitest'
import { conversationEndExplanation } from './conversation-end.ts'

describe('the conversation_completed check explains how a conversation ended', () => {
  test('a completed conversation keeps the plain reason and no evidence', () => {
    expect(conversationEndExplanation({ termination_reason: 'response_completed' }, true)).toEqual({
      reason: 'The conversation must end normally.',
      evidence: {},
    })
  })

  test('another ending is named, unknown included', () => {
    expect(conversationEndExplanation({ termination_reason: 'response_timeout' }, false)).toEqual({
      reason: 'The conversation must end normally. It ended with response_timeout.',
      evidence: { termination_reason: 'response_timeout' },
    })
    expect(conversationEndExplanation({ termination_reason: null }, false).evidence).toEqual({
      termination_reason: null,
    })
  })

  test('the duration limit names the limit and the setting, and the limit stays null when unknown', () => {
    const { reason, evidence } = conversationEndExplanation(
      { termination_reason: 'duration_limit', max_duration_seconds: 45 },
      false,
    )
    expect(reason).toBe(
      'The conversation must end normally. The call reached the maximum duration (45 s, ' +
        'simulation.max_duration_seconds) before it ended; raise simulation.max_duration_seconds if this ' +
        'scenario needs a longer call.',
    )
    expect(evidence).toEqual({
      termination_reason: 'duration_limit',
      max_duration_seconds: 45,
      setting: 'simulation.max_duration_seconds',
    })
    const unknown = conversationEndExplanation({ termination_reason: 'duration_limit' }, false)
    expect(unknown.reason).toContain('the maximum duration (simulation.max_duration_seconds)')
    expect(unknown.evidence).toMatchObject({ max_duration_seconds: null })
  })
})
