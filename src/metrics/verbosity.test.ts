import { describe, expect, test } from 'vitest'
import { expectedMaxWords, verbosity } from './verbosity.ts'

describe('verbosity', () => {
  test("words per assistant utterance against the scenario's max_words_per_turn tag", () => {
    // 2 + 9 + 4 = 15 words over 3 utterances = 5 per turn; expectation 4: ratio 5 / 4 = 1.25; one utterance (9) over.
    expect(
      verbosity(
        ['One moment.', 'Your table for two is confirmed on August 14.', 'Anything else for today?  '],
        ['booking', 'max_words_per_turn:4'],
      ),
    ).toEqual({ assistant_turns: 3, words_per_turn: 5, expected_max_words: 4, ratio: 1.25, turns_over: 1 })
  })
  test('without the tag the mean is measured and everything measured against it is null', () => {
    expect(verbosity(['Yes, we are open.'], ['booking'])).toEqual({
      assistant_turns: 1,
      words_per_turn: 4,
      expected_max_words: null,
      ratio: null,
      turns_over: null,
    })
  })
  test('without an assistant utterance the mean and ratio are null, not 0', () => {
    expect(verbosity(['', '...'], ['max_words_per_turn:10'])).toEqual({
      assistant_turns: 0,
      words_per_turn: null,
      expected_max_words: 10,
      ratio: null,
      turns_over: 0,
    })
  })
  test('only a well-formed tag states an expectation', () => {
    expect(
      expectedMaxWords(['max_words_per_turn:0', 'max_words_per_turn:x', 'max_words_per_turn:']),
    ).toBeNull()
    expect(expectedMaxWords([' max_words_per_turn:25 '])).toBe(25)
  })
})
