// Repetition (issue 21): the assistant repeating itself within a call. Defined precisely:
// - an utterance is one assistant transcript line; its words are spoken-words.ts's (normalized, split on spaces);
// - only utterances of at least MIN_REPEAT_WORDS words are compared: a short filler ("One moment.", "Sure.") said
//   again is how a voice agent holds the floor, not repeating itself;
// - an utterance is a repeat when an earlier compared utterance of the same call is a near-duplicate of it: their
//   word-level edit distance (insert, delete, substitute one word) is at most 20% of the longer one's words,
//   i.e. similarity 1 - distance / max(words) >= NEAR_DUPLICATE_SIMILARITY;
// - rate = repeats / compared utterances; null when no utterance was long enough to compare.
import type { Repetition } from '../reporting/extensions/voice-metrics.ts'
import { roundToFourPlaces } from './rounding.ts'
import { MAX_COMPARED_WORDS, spokenWords } from './spoken-words.ts'

export const MIN_REPEAT_WORDS = 4
export const NEAR_DUPLICATE_SIMILARITY = 0.8
const MAX_EXAMPLES = 5

/** Word-level Levenshtein distance (two rows; inputs bounded by MAX_COMPARED_WORDS). */
export function wordEditDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] as number
}

export function wordSimilarity(a: readonly string[], b: readonly string[]): number {
  const longest = Math.max(a.length, b.length)
  return longest === 0 ? 1 : 1 - wordEditDistance(a, b) / longest
}

export function repetition(assistantUtterances: readonly string[]): Repetition {
  const compared = assistantUtterances
    .map((text) => ({ text, words: spokenWords(text).slice(0, MAX_COMPARED_WORDS) }))
    .filter((utterance) => utterance.words.length >= MIN_REPEAT_WORDS)
  let repeated = 0
  const examples: Repetition['examples'] = []
  compared.forEach((utterance, index) => {
    const earlier = compared
      .slice(0, index)
      .find((before) => wordSimilarity(before.words, utterance.words) >= NEAR_DUPLICATE_SIMILARITY)
    if (earlier === undefined) return
    repeated++
    if (examples.length < MAX_EXAMPLES) examples.push({ text: utterance.text, repeats: earlier.text })
  })
  return {
    utterances: compared.length,
    repeated,
    rate: compared.length === 0 ? null : roundToFourPlaces(repeated / compared.length),
    examples,
  }
}
