// The rubric's score set. A judgment is exactly one of these five values; anything else (0.1, 0.49, 1.25, NaN,
// Infinity, true, "0.75", null) is refused, never rounded, because a value off the scale means the judge did not
// follow the rubric and its number cannot be trusted.

export const RUBRIC_SCORES = [0, 0.25, 0.5, 0.75, 1] as const

export type RubricScore = (typeof RUBRIC_SCORES)[number]

export function isRubricScore(value: unknown): value is RubricScore {
  return typeof value === 'number' && (RUBRIC_SCORES as readonly number[]).includes(value)
}

/** Why `value` is not a rubric score, or null when it is one. */
export function rubricScoreProblem(value: unknown): string | null {
  if (isRubricScore(value)) return null
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return `score ${shown} is not one of ${RUBRIC_SCORES.join(', ')} (scores are never rounded onto the scale)`
}
