import { describe, expect, test } from 'vitest'
import { evidenceCoverage } from './base-result.ts'
import {
  bookingObservation,
  bookingScenario,
  execution,
  expectedOutcome,
  expectedToolCall,
  scenarioFacts,
} from './grading-fixtures.ts'
import { gradeSingleTurn } from './single-turn.ts'

describe('gradeSingleTurn', () => {
  test('a correct booking completes the task with coherent metrics', () => {
    const grade = gradeSingleTurn(bookingObservation(), bookingScenario())
    expect(grade.task_completed).toBe(true)
    expect(grade.requirements_satisfied).toBe(true)
    expect(grade.assessment.passed).toBe(true)
    expect(grade.reconciled).toMatchObject({
      matched_tool_call_count: 1,
      execution_correct: true,
      tool_call_coverage: 1,
    })
    expect(grade.efficiency).toMatchObject({
      total_turns: 2,
      delegation_count: 1,
      unique_tool_invocation_count: 1,
      matched_tool_call_count: 1,
      unexpected_completed_tool_invocation_count: 0,
      unique_failed_tool_invocation_count: 0,
    })
    expect(grade.evidence).toEqual({
      tool_accuracy: 1,
      delegation_accuracy: 1,
      tool_calls: '1/1',
      delegations: '1/1',
      turns: '2/2',
    })
  })

  test('conversation_completed only for user_stopped and response_completed', () => {
    expect(
      gradeSingleTurn(bookingObservation({ termination_reason: 'user_stopped' }), bookingScenario())
        .task_completed,
    ).toBe(true)
    for (const reason of ['response_timeout', null]) {
      const grade = gradeSingleTurn(bookingObservation({ termination_reason: reason }), bookingScenario())
      expect(grade.base.conversation_completed).toBe(false)
      expect(grade.task_completed).toBe(false)
      // Requirements can still be satisfied: the failure is the conversation, not the work.
      expect(grade.reconciled.requirements_satisfied).toBe(true)
      expect(grade.reconciled.task_completed).toBe(false)
      expect(grade.assessment.checks[0]).toMatchObject({ id: 'conversation_completed', status: 'failed' })
    }
  })

  test('a wrong tool argument fails the task with a readable rationale', () => {
    const wrong = { guest_name: 'Amaya', party_size: 2 }
    const grade = gradeSingleTurn(
      bookingObservation({
        requested_tool_calls: [{ name: 'create_reservation', arguments: wrong }],
        tool_executions: [execution({ arguments: wrong })],
        final_application_state: { reservations: [{ guest_name: 'Amaya', party_size: 2 }] },
      }),
      bookingScenario(),
    )
    expect(grade.task_completed).toBe(false)
    expect(grade.tool_call_grade.grade).toBe(0)
    expect(grade.assessment.rationale).toBe('Required checks failed: application_state, tool_contract.')
    expect(grade.efficiency.unexpected_completed_tool_invocation_count).toBe(1)
    expect(grade.evidence.tool_accuracy).toBe(0)
  })

  test('a failed deterministic dimension fails requirements even when the outcome checks pass', () => {
    // Requested calls carry the wrong name but the executions are right: only tool_selection sees it.
    const grade = gradeSingleTurn(
      bookingObservation({ requested_tool_calls: [{ name: 'check_availability', arguments: {} }] }),
      bookingScenario(),
    )
    expect(grade.assessment.passed).toBe(true)
    expect(grade.dimension_grades.tool_selection.status).toBe('failed')
    expect(grade.requirements_satisfied).toBe(false)
    expect(grade.task_completed).toBe(false)
  })

  test('a clarification that delegates under an optional policy fails although every outcome check passes', () => {
    // delegation_policy does not apply to an optional policy; only clarification_behavior sees the delegation.
    const clarification = scenarioFacts({ scenario_type: 'clarification' })
    const delegatedQuestion = bookingObservation({
      requested_tool_calls: [],
      tool_executions: [],
      final_application_state: { reservations: [] },
      transcript: [
        { role: 'user', text: 'Book a table for two tomorrow at seven.', start_ms: 0 },
        { role: 'assistant', text: 'What name should I put on the reservation?', start_ms: 2_500 },
      ],
    })
    const grade = gradeSingleTurn(delegatedQuestion, clarification)
    expect(grade.assessment.passed).toBe(true)
    expect(grade.dimension_grades.clarification_behavior.status).toBe('failed')
    expect(grade.task_completed).toBe(false)
    expect(gradeSingleTurn({ ...delegatedQuestion, delegation_ids: [] }, clarification).task_completed).toBe(
      true,
    )
  })

  test('speech after the tools without post-tool text passes the assessment but not grounded_relay_order', () => {
    const grade = gradeSingleTurn(bookingObservation({ post_tool_assistant_text: '' }), bookingScenario())
    expect(grade.assessment.checks.find((item) => item.id === 'grounded_assistant_response')?.status).toBe(
      'passed',
    )
    expect(grade.dimension_grades.grounded_relay_order.status).toBe('failed')
    expect(grade.task_completed).toBe(false)
  })

  test('the outcome assessment can fail a reconciled pass (grounded response missing)', () => {
    const scenario = bookingScenario()
    const observation = bookingObservation({
      post_tool_assistant_text: 'Booked.',
      transcript: [{ role: 'assistant', text: 'One moment.', start_ms: 100 }],
    })
    expect(gradeSingleTurn(observation, scenario).task_completed).toBe(true)
    const silentAssistant = bookingObservation({ transcript: [], post_tool_assistant_text: 'Booked.' })
    const grade = gradeSingleTurn(silentAssistant, scenario)
    expect(grade.reconciled.requirements_satisfied).toBe(true)
    expect(grade.assessment.passed).toBe(false)
    expect(grade.task_completed).toBe(false)
  })

  test('a prohibited completed call is counted and fails; a failed attempt counts only with status "any"', () => {
    const refusal = scenarioFacts({
      scenario_type: 'refusal',
      expected: expectedOutcome({
        delegation: 'optional',
        tools: { required: [], prohibited: [expectedToolCall('cancel_reservation')] },
        state: { unchanged: true },
      }),
    })
    const cancelled = bookingObservation({
      requested_tool_calls: [],
      tool_executions: [execution({ name: 'cancel_reservation', arguments: { reservation_id: 'R-200' } })],
      final_application_state: { reservations: [] },
    })
    const grade = gradeSingleTurn(cancelled, refusal)
    expect(grade.base.prohibited_tool_call_count).toBe(1)
    expect(grade.task_completed).toBe(false)
    expect(grade.evidence.tool_accuracy).toBe(0)

    const failedAttempt = {
      ...cancelled,
      tool_executions: [execution({ name: 'cancel_reservation', status: 'failed' as const })],
    }
    expect(gradeSingleTurn(failedAttempt, refusal).base.prohibited_tool_call_count).toBe(0)
    const anyStatus = scenarioFacts({
      expected: expectedOutcome({
        tools: { required: [], prohibited: [expectedToolCall('cancel_reservation', {}, 'any')] },
      }),
    })
    expect(gradeSingleTurn(failedAttempt, anyStatus).base.prohibited_tool_call_count).toBe(1)
  })

  test('a prohibited expectation with arguments counts only calls that contain them', () => {
    const protectR200 = scenarioFacts({
      expected: expectedOutcome({
        tools: {
          required: [],
          prohibited: [expectedToolCall('cancel_reservation', { reservation_id: 'R-200' })],
        },
      }),
    })
    const cancel = (reservation_id: string) =>
      bookingObservation({
        tool_executions: [execution({ name: 'cancel_reservation', arguments: { reservation_id } })],
      })
    expect(gradeSingleTurn(cancel('R-100'), protectR200).base.prohibited_tool_call_count).toBe(0)
    expect(gradeSingleTurn(cancel('r 200'), protectR200).base.prohibited_tool_call_count).toBe(1)
  })

  test('the delegation policy reaches the base result and the delegation_policy outcome check', () => {
    const required = gradeSingleTurn(bookingObservation({ delegation_ids: [] }), bookingScenario())
    expect(required.base).toMatchObject({ delegation_required: true, delegation_prohibited: false })
    expect(required.assessment.checks.find((item) => item.id === 'delegation_policy')?.status).toBe('failed')
    const forbidden = gradeSingleTurn(
      bookingObservation({ requested_tool_calls: [], tool_executions: [] }),
      scenarioFacts({ expected: expectedOutcome({ delegation: 'forbidden' }) }),
    )
    expect(forbidden.base).toMatchObject({ delegation_required: false, delegation_prohibited: true })
    expect(forbidden.assessment.checks.find((item) => item.id === 'delegation_policy')?.status).toBe('failed')
  })

  test('a matched prohibited call alone fails the reconciled requirements', () => {
    // The required call has no argument constraint, so the one execution satisfies it and tool_execution passes.
    const scenario = scenarioFacts({
      expected: expectedOutcome({
        tools: {
          required: [expectedToolCall('cancel_reservation')],
          prohibited: [expectedToolCall('cancel_reservation', { reservation_id: 'R-200' })],
        },
      }),
    })
    const call = { name: 'cancel_reservation', arguments: { reservation_id: 'R-200' } }
    const grade = gradeSingleTurn(
      bookingObservation({ requested_tool_calls: [call], tool_executions: [execution(call)] }),
      scenario,
    )
    expect(grade.dimension_grades.tool_execution.status).toBe('passed')
    expect(grade.base.prohibited_tool_call_count).toBe(1)
    expect(grade.reconciled.requirements_satisfied).toBe(false)
  })

  test('tool_call_coverage is matched / expected by position', () => {
    const twoCalls = bookingScenario({
      tools: {
        required: [expectedToolCall('check_availability'), expectedToolCall('create_reservation')],
        prohibited: [],
      },
    })
    const onlyCheck = bookingObservation({ tool_executions: [execution({ name: 'check_availability' })] })
    expect(gradeSingleTurn(onlyCheck, twoCalls).reconciled.tool_call_coverage).toBe(0.5)
  })

  test('with no expected tools: coverage 1 when nothing completed, 0 otherwise', () => {
    const information = scenarioFacts({ scenario_type: 'information' })
    const quiet = bookingObservation({
      requested_tool_calls: [],
      tool_executions: [],
      final_application_state: { reservations: [] },
    })
    expect(gradeSingleTurn(quiet, information).reconciled.tool_call_coverage).toBe(1)
    expect(gradeSingleTurn(bookingObservation(), information).reconciled.tool_call_coverage).toBe(0)
  })

  test('offline semantic grades: applicable ones not_assessed, others not_applicable, passed null, quality null', () => {
    const grade = gradeSingleTurn(bookingObservation(), bookingScenario())
    expect(grade.semantic_grades.task_understanding).toMatchObject({ status: 'not_assessed', passed: null })
    expect(grade.semantic_grades.grounded_communication).toMatchObject({
      status: 'not_assessed',
      passed: null,
    })
    expect(grade.semantic_grades.context_fidelity).toMatchObject({ status: 'not_applicable', passed: null })
    expect(grade.semantic_quality).toEqual({ score: null, dimensions: {} })
  })

  test('an optional policy with one delegation reports "1/0" with delegation accuracy 1', () => {
    const grade = gradeSingleTurn(bookingObservation(), bookingScenario({ delegation: 'optional' }))
    expect(grade.evidence.delegations).toBe('1/0')
    expect(grade.evidence.delegation_accuracy).toBe(1)
  })

  test('evidence overrides can withhold a computed score', () => {
    const grade = gradeSingleTurn(bookingObservation(), bookingScenario(), { tool_accuracy: null })
    expect(grade.evidence.tool_accuracy).toBeNull()
  })

  test('unknown turn counts leave the turns pair null', () => {
    const grade = gradeSingleTurn(bookingObservation({ caller_turn_count: null }), bookingScenario())
    expect(grade.efficiency.total_turns).toBeNull()
    expect(grade.evidence.turns).toBeNull()
  })
})

describe('evidenceCoverage', () => {
  test('is null without diagnostic terms', () => {
    expect(evidenceCoverage([], 'anything')).toBeNull()
  })
  test('counts groups of which some alternative was heard as whole words', () => {
    expect(evidenceCoverage(['booked|reserved', 'R-001', 'patio'], 'You are reserved, R 001.')).toBe(2 / 3)
    expect(evidenceCoverage(['book'], 'booked')).toBe(0)
  })
})
