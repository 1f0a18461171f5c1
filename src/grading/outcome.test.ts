import { describe, expect, test } from 'vitest'
import { assessOutcome, compactAssessment, OUTCOME_CHECK_IDS, type OutcomeInput } from './outcome.ts'

function passingInput(overrides: Partial<OutcomeInput> = {}): OutcomeInput {
  return {
    conversation_completed: true,
    transcript: [
      { role: 'user', text: 'Book for Maya.', start_ms: 0 },
      { role: 'assistant', text: 'Booked.', start_ms: 5_000 },
    ],
    expected_application_state: { reservations: [{ guest_name: 'maya' }] },
    outcome_state_satisfied: true,
    state_comparison: 'single_turn',
    delegation_required: true,
    delegation_prohibited: false,
    delegation_observed: true,
    prohibited_tool_call_count: 0,
    has_critical_procedure_steps: false,
    critical_procedure_passed: null,
    expected_tool_call_count: 1,
    matched_tool_call_count: 1,
    unexpected_completed_tool_invocation_count: 0,
    failed_tool_invocation_count: 0,
    initial_application_state: { reservations: [] },
    final_application_state: { reservations: [{ guest_name: 'Maya' }] },
    tool_executions: [{ status: 'completed', completed_at_ms: 4_000 }],
    post_tool_assistant_text: '',
    ...overrides,
  }
}

function statusOf(input: OutcomeInput, id: string, strictTools = true) {
  const found = assessOutcome(input, { strictTools }).checks.find((item) => item.id === id)
  return found && { status: found.status, required: found.required }
}

describe('assessOutcome', () => {
  test('runs the checks in the documented order and passes when no required check failed', () => {
    const assessment = assessOutcome(passingInput(), { strictTools: true })
    expect(assessment.checks.map((item) => item.id)).toEqual([...OUTCOME_CHECK_IDS])
    expect(assessment).toMatchObject({
      passed: true,
      source: 'deterministic',
      rationale: 'All required checks passed.',
    })
  })

  test('conversation_completed is always required', () => {
    const assessment = assessOutcome(passingInput({ conversation_completed: false }), { strictTools: true })
    expect(assessment.passed).toBe(false)
    expect(assessment.rationale).toContain('conversation_completed')
  })

  test('assistant_responded needs an assistant line with words', () => {
    const silent = passingInput({ transcript: [{ role: 'assistant', text: '  ', start_ms: 1 }] })
    expect(statusOf(silent, 'assistant_responded')).toEqual({ status: 'failed', required: true })
    expect(assessOutcome(silent, { strictTools: true }).passed).toBe(false)
  })

  test('application_state is required only with a non-empty expected state', () => {
    expect(statusOf(passingInput({ outcome_state_satisfied: false }), 'application_state')).toEqual({
      status: 'failed',
      required: true,
    })
    const noExpectation = passingInput({ expected_application_state: {}, outcome_state_satisfied: false })
    expect(statusOf(noExpectation, 'application_state')).toEqual({
      status: 'not_applicable',
      required: false,
    })
    expect(assessOutcome(noExpectation, { strictTools: true }).passed).toBe(true)
  })

  test('delegation_policy: required and missing fails, forbidden and observed fails, optional does not apply', () => {
    expect(statusOf(passingInput({ delegation_observed: false }), 'delegation_policy')?.status).toBe('failed')
    const forbidden = passingInput({ delegation_required: false, delegation_prohibited: true })
    expect(statusOf(forbidden, 'delegation_policy')?.status).toBe('failed')
    const optional = passingInput({ delegation_required: false, delegation_observed: false })
    expect(statusOf(optional, 'delegation_policy')).toEqual({ status: 'not_applicable', required: false })
  })

  test('authorized_actions fails on any prohibited call', () => {
    const assessment = assessOutcome(passingInput({ prohibited_tool_call_count: 1 }), { strictTools: true })
    expect(assessment.passed).toBe(false)
    expect(statusOf(passingInput({ prohibited_tool_call_count: 1 }), 'authorized_actions')?.status).toBe(
      'failed',
    )
  })

  test('critical_procedure is required only with critical steps and fails when they failed', () => {
    expect(statusOf(passingInput(), 'critical_procedure')).toEqual({
      status: 'not_applicable',
      required: false,
    })
    const failed = passingInput({ has_critical_procedure_steps: true, critical_procedure_passed: false })
    expect(statusOf(failed, 'critical_procedure')).toEqual({ status: 'failed', required: true })
    expect(assessOutcome(failed, { strictTools: false }).passed).toBe(false)
  })

  test('tool_contract is required with strict tools and diagnostic without', () => {
    for (const broken of [
      { matched_tool_call_count: 0 },
      { unexpected_completed_tool_invocation_count: 1 },
      { failed_tool_invocation_count: 1 },
    ]) {
      expect(statusOf(passingInput(broken), 'tool_contract', true)).toEqual({
        status: 'failed',
        required: true,
      })
      expect(statusOf(passingInput(broken), 'tool_contract', false)).toEqual({
        status: 'failed',
        required: false,
      })
    }
    expect(
      assessOutcome(passingInput({ failed_tool_invocation_count: 1 }), { strictTools: false }).passed,
    ).toBe(true)
  })

  test('verified_state_change: a changed state needs a completed tool execution', () => {
    const unverified = passingInput({ tool_executions: [{ status: 'failed', completed_at_ms: 1 }] })
    expect(statusOf(unverified, 'verified_state_change')).toEqual({ status: 'failed', required: true })
    const unchanged = passingInput({ final_application_state: { reservations: [] } })
    expect(statusOf(unchanged, 'verified_state_change')).toEqual({
      status: 'not_applicable',
      required: false,
    })
  })

  test('grounded_assistant_response evidence names when the last completed tool finished (unknown: null)', () => {
    const evidenceOf = (input: OutcomeInput) =>
      assessOutcome(input, { strictTools: false }).checks.find(
        (item) => item.id === 'grounded_assistant_response',
      )?.evidence
    const twoTools = passingInput({
      tool_executions: [
        { status: 'completed', completed_at_ms: 4_000 },
        { status: 'completed', completed_at_ms: 4_600 },
        { status: 'failed', completed_at_ms: 9_000 },
      ],
    })
    expect(evidenceOf(twoTools)).toEqual({ post_tool_assistant_text: '', last_completed_tool_ms: 4_600 })
    const untimed = passingInput({ tool_executions: [{ status: 'completed', completed_at_ms: null }] })
    expect(evidenceOf(untimed)).toMatchObject({ last_completed_tool_ms: null })
  })

  test('grounded_assistant_response: an utterance at or after the last completed tool, or post-tool text', () => {
    expect(statusOf(passingInput(), 'grounded_assistant_response')?.status).toBe('passed')
    const atTheSameMs = passingInput({ transcript: [{ role: 'assistant', text: 'Done.', start_ms: 4_000 }] })
    expect(statusOf(atTheSameMs, 'grounded_assistant_response')?.status).toBe('passed')
    const onlyBefore = passingInput({
      transcript: [{ role: 'assistant', text: 'One moment.', start_ms: 3_999 }],
    })
    expect(statusOf(onlyBefore, 'grounded_assistant_response')).toEqual({ status: 'failed', required: true })
    expect(
      statusOf({ ...onlyBefore, post_tool_assistant_text: 'Booked.' }, 'grounded_assistant_response')?.status,
    ).toBe('passed')
    const untimedTool = passingInput({ tool_executions: [{ status: 'completed', completed_at_ms: null }] })
    expect(statusOf(untimedTool, 'grounded_assistant_response')?.status).toBe('failed')
    const noTool = passingInput({ tool_executions: [], final_application_state: { reservations: [] } })
    expect(statusOf(noTool, 'grounded_assistant_response')).toEqual({
      status: 'not_applicable',
      required: false,
    })
  })

  test('semantic_outcome is not assessed without a judge and decides with one; source follows', () => {
    expect(statusOf(passingInput(), 'semantic_outcome')).toEqual({ status: 'not_assessed', required: false })
    const judged = assessOutcome(passingInput(), { strictTools: true, semanticCompleted: false })
    expect(judged).toMatchObject({ passed: false, source: 'semantic_judge' })
    expect(assessOutcome(passingInput(), { strictTools: true, semanticCompleted: true }).passed).toBe(true)
  })

  test('a semantic pass cannot override a failed deterministic check', () => {
    const wrongState = passingInput({ outcome_state_satisfied: false })
    expect(assessOutcome(wrongState, { strictTools: true, semanticCompleted: true }).passed).toBe(false)
  })

  test('semantic_requirements is optional and not assessed', () => {
    expect(statusOf(passingInput(), 'semantic_requirements')).toEqual({
      status: 'not_assessed',
      required: false,
    })
  })

  test('compactAssessment keeps only id, status and required per check', () => {
    const compact = compactAssessment(assessOutcome(passingInput(), { strictTools: true }))
    expect(Object.keys(compact)).toEqual(['passed', 'source', 'rationale', 'checks'])
    expect(compact.checks[0]).toEqual({ id: 'conversation_completed', status: 'passed', required: true })
  })
})
