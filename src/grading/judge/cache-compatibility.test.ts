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
      'ed594ae214018bcff7c4d76ae9347261325cd2c3879720fb686616b13684463c',
    )
  })

  it('the Decisions system prompt', () => {
    expect(contentHash(judgeSystemPrompt('single_turn', 'decisions'))).toBe(
      'afd024d1717ab1752e6779e19116f4669d18b49c4008282c5eebeab2798b164a',
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
