import { describe, expect, test } from 'vitest'
import { passingRowInput } from '../reporting/reporting-fixtures.ts'
import { buildResultRow, infrastructureErrorRow } from '../reporting/result-item.ts'
import type { MatcherGrade } from './meta.ts'
import { assertionFailures, type FinishedTestView, verdictOf } from './verdict.ts'

const passedRow = () =>
  buildResultRow(
    passingRowInput({
      assessment: {
        passed: true,
        source: 'deterministic',
        rationale: 'Every required check passed.',
        checks: [{ id: 'conversation_completed', status: 'passed', required: true }],
      },
    }),
  )
const failedRow = () =>
  buildResultRow(
    passingRowInput({
      task_completed: false,
      assessment: {
        passed: false,
        source: 'deterministic',
        rationale: 'A required check failed.',
        checks: [{ id: 'outcome_state', status: 'failed', required: true }],
      },
    }),
  )

function grade(matcher: MatcherGrade['matcher'], assertionFailed: boolean): MatcherGrade {
  return {
    matcher,
    passed: !assertionFailed,
    assertion_failed: assertionFailed,
    failure_text: assertionFailed ? `Scenario restaurant_001: ${matcher} failed` : null,
    failed_checks: assertionFailed ? ['tool_call_correctness'] : [],
    summary: assertionFailed ? `${matcher} found a difference` : 'fine',
  }
}

function finished(overrides: Partial<FinishedTestView>): FinishedTestView {
  return {
    scenarioId: 'restaurant_001',
    title: 'Simple booking',
    state: 'pass',
    errors: [],
    grades: [],
    row: passedRow(),
    ...overrides,
  }
}

describe('a test that passed', () => {
  test('with a passed row: the row stays passed and the test stays passed', () => {
    const verdict = verdictOf(finished({}))
    expect(verdict.row.status).toBe('passed')
    expect(verdict.failTestWith).toBeNull()
  })

  test('with a failed row (nothing asserted the task): the test is failed, naming the failed checks', () => {
    const verdict = verdictOf(finished({ row: failedRow() }))
    expect(verdict.row.status).toBe('failed')
    expect(verdict.failTestWith).toContain('failed checks: outcome_state')
  })

  test('with a row that failed validation: the test is failed, naming the stage', () => {
    const invalid = buildResultRow({ ...passingRowInput(), raw_status: 'bogus' as never })
    expect(invalid.status).toBe('infrastructure_error')
    const verdict = verdictOf(finished({ row: invalid }))
    expect(verdict.row).toBe(invalid)
    expect(verdict.failTestWith).toContain('infrastructure_error at stage result_validation')
  })

  test('with an infrastructure failure at any stage: the test is failed with that stage', () => {
    for (const stage of ['input_setup', 'connection', 'session_start', 'response_collection']) {
      const row = infrastructureErrorRow({ scenario_id: 'restaurant_001', stage, message: 'gone' })
      expect(verdictOf(finished({ row })).failTestWith).toContain(`at stage ${stage}: gone`)
    }
  })

  test('without running its scenario: the test is failed and the row is an infrastructure_error', () => {
    const verdict = verdictOf(finished({ row: null }))
    expect(verdict.row.status).toBe('infrastructure_error')
    expect(verdict.row.error?.stage).toBe('example_execution')
    expect(verdict.failTestWith).toContain('without running its scenario')
  })
})

describe('a test that failed', () => {
  test.each(['toCompleteTask', 'toMatchToolCalls', 'toFollowDelegationPolicy'] as const)(
    'on %s: a passed row becomes failed with a failed required assertion check',
    (matcher) => {
      const failedGrade = grade(matcher, true)
      const verdict = verdictOf(
        finished({
          state: 'fail',
          grades: [failedGrade],
          errors: [{ message: failedGrade.failure_text ?? '' }],
        }),
      )
      expect(verdict.row.status).toBe('failed')
      expect(verdict.row.metrics.task.task_completed).toBe(false)
      expect(verdict.row.assessment?.passed).toBe(false)
      expect(verdict.row.assessment?.checks).toContainEqual({
        id: `assertion:${matcher}`,
        status: 'failed',
        required: true,
      })
      // The matcher's own error is its check, not a second one by message.
      expect(
        verdict.row.assessment?.checks.filter((check) => check.id.startsWith('assertion:')),
      ).toHaveLength(1)
      expect(verdict.failTestWith).toBeNull()
    },
  )

  test('on an expect in the body: the check is named by the first line of its message', () => {
    const verdict = verdictOf(
      finished({ state: 'fail', errors: [{ message: 'expected 2 to be 3 // Object.is equality\nmore' }] }),
    )
    expect(verdict.row.status).toBe('failed')
    expect(verdict.row.assessment?.checks.at(-1)).toEqual({
      id: 'assertion:expected 2 to be 3 // Object.is equality',
      status: 'failed',
      required: true,
    })
  })

  test('on a thrown error or a timeout: a passed row becomes failed', () => {
    for (const message of ['boom', 'Test timed out in 100ms.']) {
      const verdict = verdictOf(finished({ state: 'fail', errors: [{ message }] }))
      expect(verdict.row.status).toBe('failed')
      expect(verdict.row.assessment?.checks.map((check) => check.id)).toContain(`assertion:${message}`)
    }
  })

  test('with no recorded error at all: the row still fails', () => {
    const verdict = verdictOf(finished({ state: 'fail', errors: [] }))
    expect(verdict.row.status).toBe('failed')
  })

  test('with an infrastructure_error row: the status and stage stay', () => {
    const row = infrastructureErrorRow({ scenario_id: 'restaurant_001', stage: 'connection', message: 'x' })
    const verdict = verdictOf(finished({ state: 'fail', row, errors: [{ message: 'not graded' }] }))
    expect(verdict.row).toBe(row)
  })

  test('before the scenario ran: the row is an infrastructure_error with what Vitest reported', () => {
    const verdict = verdictOf(
      finished({ state: 'fail', row: null, errors: [{ message: 'Test timed out in 5000ms.\nstack' }] }),
    )
    expect(verdict.row.status).toBe('infrastructure_error')
    expect(verdict.row.error).toEqual({ stage: 'example_execution', message: 'Test timed out in 5000ms.' })
    expect(verdict.failTestWith).toBeNull()
  })

  test('a failed row gets the assertion checks added, its own failed checks kept', () => {
    const verdict = verdictOf(finished({ state: 'fail', row: failedRow(), errors: [{ message: 'boom' }] }))
    expect(verdict.row.assessment?.checks.map((check) => check.id)).toEqual([
      'outcome_state',
      'assertion:boom',
    ])
  })
})

describe('assertionFailures', () => {
  test('a .not assertion that held is no failure; long messages are cut in the id', () => {
    const held = { ...grade('toCompleteTask', false), passed: false }
    const failures = assertionFailures([held], [{ message: 'x'.repeat(200) }])
    expect(failures).toHaveLength(1)
    expect(failures[0]?.id.length).toBeLessThanOrEqual('assertion:'.length + 80)
  })

  test('the same failure twice is one check', () => {
    expect(assertionFailures([], [{ message: 'boom' }, { message: 'boom' }])).toHaveLength(1)
  })
})

describe('a test the spec declared an expected failure', () => {
  const declared = { checks: ['outcome_state'] }

  test('the row failed on exactly the declared checks: the test passes, the row stays failed and says met', () => {
    const verdict = verdictOf(finished({ row: failedRow(), expectedFailure: declared }))
    expect(verdict.failTestWith).toBeNull()
    expect(verdict.row.status).toBe('failed')
    expect(verdict.row.metrics.task.task_completed).toBe(false)
    expect(verdict.row.observability?.live_evals?.expected_failure).toEqual({
      checks: ['outcome_state'],
      met: true,
    })
  })

  test('it failed on other checks: the test fails naming them, the row records met: false', () => {
    const verdict = verdictOf(
      finished({ row: failedRow(), expectedFailure: { checks: ['no_false_confirmation'] } }),
    )
    expect(verdict.failTestWith).toMatch(
      /expected to fail on no_false_confirmation, but results.json records other failed checks: outcome_state/,
    )
    expect(verdict.row.status).toBe('failed')
    expect(verdict.row.observability?.live_evals?.expected_failure).toEqual({
      checks: ['no_false_confirmation'],
      met: false,
    })
  })

  test('it passed: the test fails and so does the row (one verdict), with met: false', () => {
    const verdict = verdictOf(finished({ row: passedRow(), expectedFailure: declared }))
    expect(verdict.failTestWith).toMatch(
      /expected to fail on outcome_state, but results.json records it as passed/,
    )
    expect(verdict.row.status).toBe('failed')
    expect(verdict.row.assessment?.checks).toContainEqual({
      id: 'assertion:expected_failure',
      status: 'failed',
      required: true,
    })
    expect(verdict.row.observability?.live_evals?.expected_failure?.met).toBe(false)
  })

  test('an infrastructure error is never the declared failure', () => {
    const row = infrastructureErrorRow({
      scenario_id: 'restaurant_001',
      stage: 'connection',
      message: 'refused',
    })
    const verdict = verdictOf(finished({ row, expectedFailure: declared }))
    expect(verdict.failTestWith).toMatch(/records an infrastructure_error at stage connection/)
    expect(verdict.row.status).toBe('infrastructure_error')
  })

  test('the body failed (its own assertion): the test fails, the row records met: false', () => {
    const verdict = verdictOf(
      finished({
        state: 'fail',
        errors: [{ message: 'must fail on exactly outcome_state' }],
        row: passedRow(),
        expectedFailure: declared,
      }),
    )
    expect(verdict.failTestWith).toBeNull()
    expect(verdict.row.status).toBe('failed')
    expect(verdict.row.observability?.live_evals?.expected_failure?.met).toBe(false)
  })
})
