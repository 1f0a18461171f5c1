// A tool that refuses a call (its execute throws) leaves a failed execution. A scenario that expects the refusal
// says so with `status: 'failed'` (or `'any'`) on the required call; then the refusal meets the tool contract.
// Without it, a refusal is an unexpected failure, as before.
import { describe, expect, test } from 'vitest'
import type { ExpectedToolCall } from '../scenarios/index.ts'
import { bookingObservation, bookingScenario, execution, expectedToolCall } from './grading-fixtures.ts'
import { gradeRunToolEvidence } from './run/tool-evidence.ts'
import { gradeSingleTurn } from './single-turn.ts'
import { countMatchedProhibitedExpectations, matchRequiredExecutions } from './tool-matching.ts'

const ARGS = { guest_name: 'Maya', party_size: 12 }

/** The assistant asked for a table of twelve and the tool refused it (too large): nothing changed. */
const refused = bookingObservation({
  requested_tool_calls: [{ name: 'create_reservation', arguments: ARGS }],
  tool_executions: [
    execution({ arguments: ARGS, status: 'failed', output: { ok: false, error: 'at most 8 guests' } }),
  ],
  final_application_state: { reservations: [] },
  transcript: [
    { role: 'user', text: 'Book a table for twelve under Maya tomorrow at seven.', start_ms: 0 },
    { role: 'assistant', text: 'Sorry, we take at most eight guests.', start_ms: 4_500 },
  ],
  post_tool_assistant_text: 'Sorry, we take at most eight guests.',
})

function graded(status: ExpectedToolCall['status']) {
  const grade = gradeSingleTurn(
    refused,
    bookingScenario({
      tools: {
        required: [expectedToolCall('create_reservation', { party_size: 12 }, status)],
        prohibited: [],
      },
      state: { unchanged: true },
    }),
  )
  const contract = grade.assessment.checks.find((check) => check.id === 'tool_contract')
  return { grade, contract }
}

describe('an expected refusal', () => {
  test.each(['failed', 'any'] as const)(
    'status %s: the refusal meets the tool contract and the task',
    (status) => {
      const { grade, contract } = graded(status)
      expect(contract).toMatchObject({ status: 'passed', evidence: { matched: 1, failed: 0 } })
      expect(grade.dimension_grades.tool_execution.status).toBe('passed')
      expect(grade.task_completed).toBe(true)
    },
  )

  test.each(['failed', 'any'] as const)(
    'status %s: the row counts the refusal as the expected call (tool accuracy 1, tool calls 1/1)',
    (status) => {
      const { grade } = graded(status)
      expect(grade.efficiency).toMatchObject({
        matched_tool_call_count: 1,
        unexpected_completed_tool_invocation_count: 0,
      })
      expect(grade.evidence).toMatchObject({ tool_accuracy: 1, tool_calls: '1/1' })
    },
  )

  test('status completed (the default): a refusal is not the call the scenario wanted', () => {
    const { grade, contract } = graded('completed')
    expect(contract).toMatchObject({ status: 'failed', evidence: { matched: 0, failed: 1 } })
    expect(grade.task_completed).toBe(false)
    expect(grade.evidence).toMatchObject({ tool_accuracy: 0, tool_calls: '1/1' })
  })

  test('status failed, but the call went through: the contract, the task and the accuracy all fail', () => {
    const accepted = { ...refused, tool_executions: [execution({ arguments: ARGS })] }
    const grade = gradeSingleTurn(
      accepted,
      bookingScenario({
        tools: {
          required: [expectedToolCall('create_reservation', { party_size: 12 }, 'failed')],
          prohibited: [],
        },
        state: { unchanged: true },
      }),
    )
    const contract = grade.assessment.checks.find((check) => check.id === 'tool_contract')
    expect(contract).toMatchObject({
      status: 'failed',
      evidence: { expected: 1, matched: 0, unexpected_completed: 1, failed: 0 },
    })
    expect(grade.efficiency).toMatchObject({
      matched_tool_call_count: 0,
      unexpected_completed_tool_invocation_count: 1,
    })
    expect(grade.evidence.tool_accuracy).toBe(0)
    expect(grade.task_completed).toBe(false)
  })

  test('status failed is not met by a call that went through', () => {
    const match = matchRequiredExecutions(
      [expectedToolCall('create_reservation', {}, 'failed')],
      [execution({ status: 'completed' })],
    )
    expect(match).toMatchObject({ matched: 0, matched_completed: 0, unexpected_failed: 0 })
  })

  test('a refusal nobody expected still counts as a failure beside an expected one', () => {
    const match = matchRequiredExecutions(
      [expectedToolCall('create_reservation', { party_size: 12 }, 'failed')],
      [
        execution({ call_id: 'a', arguments: ARGS, status: 'failed' }),
        execution({ call_id: 'b', name: 'cancel_reservation', arguments: {}, status: 'failed' }),
      ],
    )
    expect(match).toMatchObject({ matched: 1, unexpected_failed: 1 })
  })

  test('RUN: a required refusal matches one to one, and is no unexpected failure', () => {
    const evidence = gradeRunToolEvidence(
      { required: [expectedToolCall('create_reservation', { party_size: 12 }, 'failed')], prohibited: [] },
      [execution({ arguments: ARGS, status: 'failed' })],
    )
    expect(evidence).toMatchObject({
      matched_tool_call_count: 1,
      failed_tool_invocation_count: 1,
      unexpected_failed_tool_invocation_count: 0,
      unexpected_completed_tool_invocation_count: 0,
    })
  })

  test('RUN: a call that went through where a refusal was expected matches nothing and is unexpected work', () => {
    const evidence = gradeRunToolEvidence(
      { required: [expectedToolCall('create_reservation', { party_size: 12 }, 'failed')], prohibited: [] },
      [execution({ arguments: ARGS })],
    )
    expect(evidence).toMatchObject({
      matched_tool_call_count: 0,
      tool_call_coverage: 0,
      unexpected_completed_tool_invocation_count: 1,
      unexpected_failed_tool_invocation_count: 0,
    })
  })

  test('prohibited calls (single turn): completed counts calls that went through, failed refused attempts', () => {
    const attempts = [execution({ status: 'failed' })]
    const prohibited = (status: ExpectedToolCall['status']) =>
      countMatchedProhibitedExpectations([expectedToolCall('create_reservation', {}, status)], attempts)
    expect([prohibited('completed'), prohibited('failed'), prohibited('any')]).toEqual([0, 1, 1])
  })
})
