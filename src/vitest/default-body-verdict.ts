// The default test body's verdict over a row, outside a Vitest test: the same matchers in the same order
// (default-body.ts), their failures turned into failed required `assertion:<matcher>` checks by the one-verdict
// rule (verdict.ts). `live-evals grade` applies it to a re-graded row and `live-evals explain` to each re-run, so
// a row they write says what the test would have said.
import type { MatcherState } from 'vitest'
import type { Phase } from '../config/index.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { assertDefaultBody } from './default-body.ts'
import { scenarioMatchers } from './matchers.ts'
import { initialMeta, type MatcherGrade } from './meta.ts'
import { bindRunToMeta, type ScenarioRun } from './scenario-run.ts'
import { type AssertionFailure, applyAssertionFailures, assertionFailures } from './verdict.ts'

export interface DefaultBodyOptions {
  /** Only the matchers read it (for their grades). */
  phase: Phase
  scenarioType: string
  /** Whether the judge graded the row: toSatisfyRubric runs only then. */
  judged: boolean
  /** Failed assertions the matchers cannot re-check (a custom body's), added as they are. */
  carried?: readonly AssertionFailure[]
}

export function defaultBodyVerdict(run: ScenarioRun, options: DefaultBodyOptions): ResultItem {
  const meta = initialMeta({
    phase: options.phase,
    scenarioId: run.scenarioId,
    scenarioType: options.scenarioType,
    architecture: run.architecture,
    runDirectory: '',
  })
  bindRunToMeta(run, meta)
  const state = { isNot: false } as MatcherState
  assertDefaultBody(
    options.judged,
    (matcher) => scenarioMatchers[matcher].call(state, run),
    run.interaction,
    run.observation !== null,
  )
  const failures = [...assertionFailures(meta.grades as MatcherGrade[], []), ...(options.carried ?? [])]
  return applyAssertionFailures(run.row, failures)
}
