// The words of an utterance as the voice metrics count and compare them: the grader's normalized text form
// (grading/matching.ts: lower case, punctuation as spaces), split on spaces. One definition for repetition and
// verbosity, so "words" means the same in both.
import { normalizeArgumentText } from '../grading/matching.ts'

/** An utterance longer than this is compared on its first words only (bounded work on any transcript). */
export const MAX_COMPARED_WORDS = 200

export function spokenWords(text: string): string[] {
  const normalized = normalizeArgumentText(text)
  return normalized === '' ? [] : normalized.split(' ')
}
