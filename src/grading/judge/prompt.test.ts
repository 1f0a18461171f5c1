import { describe, expect, it } from 'vitest'
import { judgeSystemPrompt } from './prompt.ts'

describe('the judge system prompt', () => {
  it.each([
    ['single_turn', 'responses'],
    ['single_turn', 'decisions'],
    ['multi_turn', 'responses'],
    ['multi_turn', 'decisions'],
  ] as const)(
    '%s (%s) asks for a severity-aware score of exactly the five values (reference §3.7)',
    (interaction, backend) => {
      const prompt = judgeSystemPrompt(interaction, backend)
      expect(prompt).toContain('severity-aware score')
      expect(prompt).toContain('exactly 0, 0.25, 0.5, 0.75, or 1')
      // The score is graded per dimension; task completion stays its own decision.
      expect(prompt).toContain('never stands in for the separate yes-or-no decision')
    },
  )
})
