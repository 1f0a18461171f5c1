// The row's `semantic_quality` from the judge's per-dimension scores (§4.1): their mean, rounded to 4 places.
// A score outside [0, 1] (or not a finite number) is a broken judge answer, not a low grade, so it is refused.

import type { TaskMetrics } from '../reporting/result-schema.ts'
import { roundToFourPlaces } from './rounding.ts'

/** `score` is the mean of the dimension scores; null when no dimension was scored (offline, or nothing applicable). */
export type SemanticQuality = TaskMetrics['semantic_quality']

export function semanticQualityFromScores(scores: Readonly<Record<string, unknown>>): SemanticQuality {
  const dimensions: Record<string, number> = {}
  for (const [dimension, value] of Object.entries(scores)) {
    // Written as a negated range so that NaN (which fails every comparison) is refused too.
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new RangeError(
        `semantic score of dimension "${dimension}" must be a finite number between 0 and 1 (got ${String(value)}); ` +
          'check the judge answer that produced it',
      )
    }
    dimensions[dimension] = value
  }
  const values = Object.values(dimensions)
  if (values.length === 0) return { score: null, dimensions }
  return {
    score: roundToFourPlaces(values.reduce((sum, value) => sum + value, 0) / values.length),
    dimensions,
  }
}
