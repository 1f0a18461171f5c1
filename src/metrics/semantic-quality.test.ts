import { describe, expect, test } from 'vitest'
import { semanticQualityFromScores } from './semantic-quality.ts'

describe('semanticQualityFromScores', () => {
  test('the score is the mean of the dimension scores, rounded to 4 places', () => {
    expect(semanticQualityFromScores({ task_understanding: 1, context_fidelity: 0.5, coherence: 0 })).toEqual(
      {
        score: 0.5,
        dimensions: { task_understanding: 1, context_fidelity: 0.5, coherence: 0 },
      },
    )
    expect(semanticQualityFromScores({ a: 1, b: 1, c: 0 }).score).toBe(0.6667)
  })
  test('no scored dimension means an unknown score, not 0', () => {
    expect(semanticQualityFromScores({})).toEqual({ score: null, dimensions: {} })
  })
  test('0 and 1 are accepted; anything outside [0, 1] or not finite is refused, naming the dimension', () => {
    for (const bad of [-0.01, 1.01, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null, true]) {
      expect(() => semanticQualityFromScores({ task_understanding: 1, grounded: bad })).toThrow(
        /"grounded" must be a finite number between 0 and 1/,
      )
    }
  })
})
