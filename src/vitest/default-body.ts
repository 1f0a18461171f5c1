// The default test body of a scenario, in one place: the matchers it asserts, in order. scenarioSuite() runs it in
// each test, and `live-evals grade` applies the same matchers again to a re-graded row, so the two cannot drift.
import type { MatcherGrade } from './meta.ts'

type MatcherName = MatcherGrade['matcher']

/** Every matcher of the default body, in the order it asserts them. */
export const DEFAULT_BODY_MATCHERS: readonly MatcherName[] = [
  'toMatchToolCalls',
  'toFollowDelegationPolicy',
  'toSatisfyRubric',
  'toCompleteTask',
]

/**
 * Asserts the default body through `assert`: soft for all but the last (toCompleteTask), so one test reports every
 * failing matcher. toSatisfyRubric only where the run has a judge (live, grading enabled): it is the judge's. A
 * conversation (RUN) skips toMatchToolCalls: its tool contract is diagnostic (reference §3.6, strict_tools false),
 * and the task decision already requires what matters of it (no prohibited call, the verified state). A run in
 * which nothing was observed (it failed before it could be graded) asserts toCompleteTask alone: every matcher
 * would fail with the same failure text, and the test would print it three times.
 */
export function assertDefaultBody(
  judged: boolean,
  assert: (matcher: MatcherName, soft: boolean) => void,
  interaction: 'single_turn' | 'multi_turn' = 'single_turn',
  observed = true,
): void {
  if (!observed) {
    assert('toCompleteTask', false)
    return
  }
  for (const matcher of DEFAULT_BODY_MATCHERS) {
    if (matcher === 'toSatisfyRubric' && !judged) continue
    if (matcher === 'toMatchToolCalls' && interaction === 'multi_turn') continue
    assert(matcher, matcher !== 'toCompleteTask')
  }
}
