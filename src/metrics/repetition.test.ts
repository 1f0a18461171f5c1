import { describe, expect, test } from 'vitest'
import { repetition, wordEditDistance, wordSimilarity } from './repetition.ts'

describe('repetition', () => {
  test('word edit distance and similarity', () => {
    // one substitution (a -> the) and one deletion (today): 2 edits over 6 words -> 1 - 2/6.
    const a = ['is', 'there', 'a', 'table', 'free', 'today']
    const b = ['is', 'there', 'the', 'table', 'free']
    expect(wordEditDistance(a, b)).toBe(2)
    expect(wordSimilarity(a, b)).toBeCloseTo(1 - 2 / 6, 10)
    expect(wordSimilarity([], [])).toBe(1)
  })
  test('a near-duplicate of an earlier utterance is a repeat; normalisation ignores case and punctuation', () => {
    const said = [
      'One moment.', // 2 words: a filler, not compared
      'Your table for two is confirmed on August 14.', // 9 words
      'One moment.',
      'YOUR table for two is confirmed, on August 14!', // identical once normalised: similarity 1
      'Your table for four is confirmed on August 14.', // 1 substitution in 9 words: 1 - 1/9 = 0.889 >= 0.8
      'Parking is free in the lot next door.', // new
    ]
    // Compared: 4 utterances, 2 repeats -> 2 / 4 = 0.5.
    const result = repetition(said)
    expect(result).toMatchObject({ utterances: 4, repeated: 2, rate: 0.5 })
    expect(result.examples).toEqual([
      { text: said[3], repeats: said[1] },
      { text: said[4], repeats: said[1] },
    ])
  })
  test('below the similarity threshold is not a repeat', () => {
    // 'what time would you like' vs 'what name would you like to use': 1 substitution + 2 insertions = 3 edits over
    // 7 words: 1 - 3/7 = 0.571 < 0.8.
    expect(repetition(['What time would you like?', 'What name would you like to use?'])).toMatchObject({
      utterances: 2,
      repeated: 0,
      rate: 0,
    })
  })
  test('null when no utterance is long enough to compare (fillers only, or none)', () => {
    expect(repetition(['One moment.', 'One moment.', 'Sure.'])).toEqual({
      utterances: 0,
      repeated: 0,
      rate: null,
      examples: [],
    })
    expect(repetition([]).rate).toBeNull()
  })
})
