// Verbosity (issue 21): words per assistant utterance (spoken-words.ts), against the scenario's expectation where
// it states one. The scenario contract (schema 1.0) has no field for it, so a scenario states it as a tag,
// `max_words_per_turn:N` (tags stay with the evaluator; the assistant never sees them). ratio = mean words per
// utterance / N: above 1 is wordier than expected. Without the tag the expectation, ratio and turns over it are
// null; without an assistant utterance the mean is null too.
import type { Verbosity } from '../reporting/extensions/voice-metrics.ts'
import { roundToFourPlaces } from './rounding.ts'
import { spokenWords } from './spoken-words.ts'

const EXPECTATION_TAG = /^max_words_per_turn:([1-9]\d{0,3})$/

/** The scenario's expected maximum words per assistant utterance, from its tags; null when it states none. */
export function expectedMaxWords(tags: readonly string[]): number | null {
  for (const tag of tags) {
    const match = EXPECTATION_TAG.exec(tag.trim())
    if (match) return Number(match[1])
  }
  return null
}

export function verbosity(assistantUtterances: readonly string[], tags: readonly string[]): Verbosity {
  const counts = assistantUtterances.map((text) => spokenWords(text).length).filter((words) => words > 0)
  const expected = expectedMaxWords(tags)
  const mean =
    counts.length === 0
      ? null
      : Math.round((counts.reduce((sum, words) => sum + words, 0) / counts.length) * 1000) / 1000
  return {
    assistant_turns: counts.length,
    words_per_turn: mean,
    expected_max_words: expected,
    ratio: expected === null || mean === null ? null : roundToFourPlaces(mean / expected),
    turns_over: expected === null ? null : counts.filter((words) => words > expected).length,
  }
}
