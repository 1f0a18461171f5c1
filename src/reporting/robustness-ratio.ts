// How every reader names condition robustness's count: the console line, the HTML report and the JUnit property
// print this one wording, so none of them can divide by another total. The robust sources are counted over those
// whose robustness is known (robust_rate's denominator), and the total and the unknown are said beside it: `1/2`
// alone reads as half robust when the other source only failed to run.
import type { ConditionRobustness } from './extensions/condition-robustness.ts'

/** `robust/known of sources source scenarios`, with `(unknown: n)` when a source is unknown. */
export function robustnessRatioText(robustness: ConditionRobustness): string {
  // 1.0 documents have no `unknown`: every source of theirs was known.
  const unknown = robustness.unknown ?? 0
  const known = robustness.sources - unknown
  return (
    `${robustness.robust}/${known} of ${robustness.sources} source scenarios` +
    (unknown === 0 ? '' : ` (unknown: ${unknown})`)
  )
}
