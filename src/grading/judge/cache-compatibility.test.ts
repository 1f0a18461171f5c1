// The judge cache answers only what hashes the same. These pins hold the single-turn prompt and evidence to the
// bytes earlier runs cached under, so a change meant for a simulated call (RUN) cannot silently invalidate every
// cached CRAWL/WALK judgment. A deliberate single-turn change updates the pins (and says so in its commit).
import { describe, expect, it } from 'vitest'
import { contentHash } from './cache.ts'
import { buildJudgeEvidence } from './evidence.ts'
import { bookingObserved, judgeBookingWithContext } from './judge.test-helpers.ts'
import { dimensionHeader, judgeSystemPrompt } from './prompt.ts'

describe('single-turn judge requests keep their cache identity', () => {
  it('the Responses prompt hash of task_understanding', () => {
    const system = judgeSystemPrompt('single_turn', 'responses')
    expect(contentHash({ system, header: dimensionHeader('task_understanding') })).toBe(
      '07bce0b03f2311f9f6883c2ecc6c2e3c79e0adf95442d452bb774b6f3e9ae635',
    )
  })

  it('the Decisions system prompt', () => {
    expect(contentHash(judgeSystemPrompt('single_turn', 'decisions'))).toBe(
      'c1b719b21b5ecede56e2de5afa8b02f079b6a6d9df65256a77946c9d1f551f31',
    )
  })

  it('the evidence of the booking fixture (re-pin only when grading-fixtures.ts changes)', () => {
    expect(contentHash(buildJudgeEvidence(judgeBookingWithContext(), bookingObserved()))).toBe(
      '9f83bd428f10e35a4bfaa8e47a87615b23eda3eddcb88aa24dc3d3f88df70712',
    )
  })

  it('the simulated-call prompt differs from the single-turn one only by its leniency rules', () => {
    const single = judgeSystemPrompt('single_turn', 'responses')
    const call = judgeSystemPrompt('multi_turn', 'responses')
    expect(call).not.toBe(single)
    const [head = '', tail = ''] = single.split('\n\nAnswer with:')
    expect(call.startsWith(head)).toBe(true)
    expect(call.endsWith(`\n\nAnswer with:${tail}`)).toBe(true)
    expect(call).toContain('This was a whole simulated call.')
  })
})
