// One verdict: the Vitest test state and the results.json row of a scenario always agree.
//
//   Vitest state at the end of the test   row before        row after (what results.json says)
//   passed                                passed            passed
//   passed                                failed / infra    the test is failed with the row's reason (same row)
//   passed, no row (scenario never ran)   —                 the test is failed; infrastructure_error row
//   failed (matcher, expect, throw)       passed            failed: one required check `assertion:<...>` per failure
//   failed                                failed            failed, the assertion checks added
//   failed                                infra             infrastructure_error (the stage stays)
//   failed before the scenario ran        —                 infrastructure_error at example_execution
//   skipped / todo                        —                 no row
//
// A test the spec declared an expected failure (scenarioSuite's expectedFailures: the row must fail on exactly
// these required checks) passes when the row did; the row keeps its real `failed` verdict and says, in its
// `expected_failure` extension, that it failed as declared (met). Any other outcome fails the test, and the row
// records met: false. So Vitest passes a test iff results.json's row passed or failed exactly as declared.
//
// A failing assertion becomes a failed *required* check of the row's assessment, so `task_completed` follows
// from the checks exactly as for the built-in graders and "passed iff task completed" still holds.
import { withRowExtension } from '../reporting/extensions/with-row-extension.ts'
import { infrastructureErrorRow, validateResultRow } from '../reporting/result-item.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import type { MatcherGrade } from './meta.ts'

/** A failed assertion of the test, as it becomes a check: `assertion:<matcher>` or `assertion:<message>`. */
export interface AssertionFailure {
  id: string
  message: string
}

/** The longest message prefix kept in a check id (ids are keys, not evidence). */
const ID_MESSAGE_CHARS = 80

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]?.trim() ?? ''
  return line.length > ID_MESSAGE_CHARS ? `${line.slice(0, ID_MESSAGE_CHARS - 1)}…` : line
}

/**
 * The failed assertions of a finished test: every matcher whose assertion failed (by name), then every other
 * error Vitest recorded (`expect` in the body, a thrown error, a timeout), by the first line of its message.
 */
export function assertionFailures(
  grades: readonly MatcherGrade[],
  errors: readonly { message?: string | undefined }[],
): AssertionFailure[] {
  const failedMatchers = grades.filter((grade) => grade.assertion_failed)
  const failures: AssertionFailure[] = failedMatchers.map((grade) => ({
    id: `assertion:${grade.matcher}`,
    message: grade.summary,
  }))
  for (const error of errors) {
    const message = error.message ?? ''
    // A matcher's own failure is already its check; its error carries the text that matcher built.
    if (failedMatchers.some((grade) => grade.failure_text !== null && message.includes(grade.failure_text)))
      continue
    failures.push({ id: `assertion:${firstLine(message) || 'error'}`, message })
  }
  const seen = new Set<string>()
  return failures.filter((failure) => !seen.has(failure.id) && seen.add(failure.id))
}

/**
 * The row with the test's failed assertions as failed required checks. A graded row (passed or failed) becomes
 * `failed`; an infrastructure_error keeps its status and stage (the evidence is incomplete either way).
 */
export function applyAssertionFailures(row: ResultItem, failures: readonly AssertionFailure[]): ResultItem {
  if (failures.length === 0 || row.status === 'infrastructure_error') return row
  const assessment = row.assessment ?? {
    passed: row.status === 'passed',
    source: 'deterministic' as const,
    rationale: '',
    checks: [],
  }
  const known = new Set(assessment.checks.map((check) => check.id))
  const added = failures
    .filter((failure) => !known.has(failure.id))
    .map((failure) => ({ id: failure.id, status: 'failed' as const, required: true }))
  const rationale = `Test assertions failed: ${failures.map((failure) => failure.id).join(', ')}.`
  return validateResultRow({
    ...row,
    status: 'failed',
    metrics: { ...row.metrics, task: { ...row.metrics.task, task_completed: false } },
    assessment: {
      ...assessment,
      passed: false,
      rationale: assessment.rationale === '' ? rationale : `${assessment.rationale} ${rationale}`,
      checks: [...assessment.checks, ...added],
    },
  })
}

/** The required checks that failed the row: the reference's, then ours beyond it (the extension block). */
export function failedRequiredChecks(row: ResultItem): string[] {
  return [...(row.assessment?.checks ?? []), ...(row.observability?.live_evals?.checks ?? [])]
    .filter((check) => check.required && check.status === 'failed')
    .map((check) => check.id)
}

/** The row with its `expected_failure` extension (the declared checks, and whether it failed exactly on them). */
export function withExpectedFailure(row: ResultItem, checks: readonly string[], met: boolean): ResultItem {
  return validateResultRow(withRowExtension(row, 'expected_failure', { checks: [...checks].sort(), met }))
}

/** Whether a row failed on exactly the declared required checks (a graded failure, not an infrastructure error). */
export function failedAsDeclared(row: ResultItem, checks: readonly string[]): boolean {
  if (row.status !== 'failed') return false
  const failed = new Set(failedRequiredChecks(row))
  return failed.size === new Set(checks).size && checks.every((check) => failed.has(check))
}

/** Why a passing test must fail because its row did not pass; null when the row passed. */
export function rowFailureReason(scenarioId: string, row: ResultItem): string | null {
  if (row.status === 'passed') return null
  if (row.status === 'infrastructure_error') {
    const error = row.error ?? { stage: 'unknown', message: '' }
    return `Scenario ${scenarioId}: results.json records an infrastructure_error at stage ${error.stage}: ${error.message}`
  }
  const failed = failedRequiredChecks(row)
  return (
    `Scenario ${scenarioId}: results.json records the task as failed ` +
    `(failed checks: ${failed.join(', ') || 'none recorded'}), but the test asserted nothing that failed; ` +
    'assert it with expect(liveSession).toCompleteTask()'
  )
}

export interface FinishedTestView {
  scenarioId: string
  title: string
  state: 'pass' | 'fail'
  errors: readonly { message?: string | undefined }[]
  grades: readonly MatcherGrade[]
  row: ResultItem | null
  /** The spec's expected failure for this test (its meta); absent or null: the scenario must pass. */
  expectedFailure?: { checks: readonly string[] } | null
}

export interface Verdict {
  /** The row results.json records. */
  row: ResultItem
  /** When the test passed but the row does not: the error that fails the test, so both say the same. */
  failTestWith: string | null
}

/** The one verdict of a finished scenario test (see the table at the top of this file). */
export function verdictOf(test: FinishedTestView): Verdict {
  if (test.row === null) {
    const message =
      test.state === 'fail'
        ? test.errors.map((error) => firstLine(error.message ?? '')).join('; ') ||
          'the test failed before the scenario was graded'
        : 'the test ended without running its scenario (use the liveSession fixture in the test body)'
    const row = infrastructureErrorRow({
      scenario_id: test.scenarioId,
      title: test.title,
      stage: 'example_execution',
      message,
    })
    return {
      row,
      failTestWith: test.state === 'pass' ? `Scenario ${test.scenarioId}: ${message}` : null,
    }
  }
  const expected = test.expectedFailure ?? null
  if (test.state === 'fail') {
    const failures = assertionFailures(test.grades, test.errors)
    // A failed test always failed for a reason; should Vitest have recorded none, the row still fails.
    const reasons =
      failures.length > 0 ? failures : [{ id: 'assertion:test_failed', message: 'the test failed' }]
    const row = applyAssertionFailures(test.row, reasons)
    return {
      row: expected === null ? row : withExpectedFailure(row, expected.checks, false),
      failTestWith: null,
    }
  }
  if (expected === null) return { row: test.row, failTestWith: rowFailureReason(test.scenarioId, test.row) }
  if (failedAsDeclared(test.row, expected.checks)) {
    return { row: withExpectedFailure(test.row, expected.checks, true), failTestWith: null }
  }
  // Declared to fail, but it passed or failed otherwise: the test fails, and so does the row (an assertion).
  const message =
    `Scenario ${test.scenarioId}: expected to fail on ${[...expected.checks].sort().join(', ')}, but results.json ` +
    (test.row.status === 'passed'
      ? 'records it as passed'
      : test.row.status === 'infrastructure_error'
        ? `records an infrastructure_error at stage ${test.row.error?.stage ?? 'unknown'}`
        : `records other failed checks: ${failedRequiredChecks(test.row).join(', ') || 'none'}`)
  const row = applyAssertionFailures(test.row, [{ id: 'assertion:expected_failure', message }])
  return { row: withExpectedFailure(row, expected.checks, false), failTestWith: message }
}
