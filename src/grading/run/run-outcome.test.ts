import { describe, expect, it } from 'vitest'
import { assistant, BOOKING, caller, executed, expectedOf } from './run-grading.test-helpers.ts'
import { gradeRun, type RunObservation } from './run-outcome.ts'
import { gradeRunToolEvidence } from './tool-evidence.ts'

const EMPTY = { reservations: [], authorized_reservation_ids: [] }
const BOOKED = {
  reservations: [{ reservation_id: 'R-001', ...BOOKING, cancelled: false }],
  authorized_reservation_ids: [],
}

const bookingExpected = (extra: Record<string, unknown> = {}) =>
  expectedOf({
    tools: { required: [{ name: 'create_reservation', arguments: BOOKING }] },
    delegation: 'required',
    state: { reservations: [{ reservation_id: 'R-001', guest_name: 'Patel' }] },
    procedure: {
      id: 'sop',
      steps: [
        { id: 'book', kind: 'tool', tool: 'create_reservation', arguments: BOOKING, critical: true },
        { id: 'confirm', kind: 'grounded_confirmation', after: ['book'] },
      ],
    },
    ...extra,
  })

function observation(overrides: Partial<RunObservation> = {}): RunObservation {
  return {
    termination_reason: 'response_completed',
    delegation_ids: ['d1'],
    tool_executions: [executed('create_reservation', BOOKING, 9_000)],
    initial_application_state: EMPTY,
    final_application_state: BOOKED,
    transcript: [
      caller(0, 'A table for four under Patel.'),
      assistant(9_200, 'Booked: R-001.'),
      caller(12_000, 'Thanks, bye.'),
    ],
    post_tool_assistant_text: 'Booked: R-001.',
    ...overrides,
  }
}

const checkStatus = (grade: ReturnType<typeof gradeRun>, id: string) =>
  grade.assessment.checks.find((check) => check.id === id)

describe('RUN tool evidence', () => {
  it('matches required calls one-to-one in any order and counts the rest as unexpected', () => {
    const tools = expectedOf({
      tools: {
        required: [
          { name: 'check_availability', arguments: { time: '21:00' } },
          { name: 'check_availability', arguments: { time: '20:00' } },
        ],
      },
    }).tools
    const evidence = gradeRunToolEvidence(tools, [
      executed('check_availability', { time: '20:00' }, 1_000),
      executed('check_availability', { time: '21:00' }, 2_000),
      executed('check_availability', { time: '21:00' }, 3_000),
    ])
    expect(evidence).toMatchObject({
      matched_tool_call_count: 2,
      tool_call_coverage: 1,
      unexpected_completed_tool_invocation_count: 1,
    })
  })
  it('counts prohibited attempts of every status, dedupes by call id, and keeps the larger earlier count', () => {
    const tools = expectedOf({ tools: { prohibited: [{ name: 'cancel_reservation' }] } }).tools
    const failed = executed('cancel_reservation', { reservation_id: 'R-200' }, 1_000, 'failed')
    const evidence = gradeRunToolEvidence(tools, [
      failed,
      failed,
      executed('cancel_reservation', { reservation_id: 'R-201' }, 2_000),
    ])
    expect(evidence).toMatchObject({
      prohibited_tool_call_count: 2,
      unique_tool_invocation_count: 2,
      failed_tool_invocation_count: 1,
    })
    expect(gradeRunToolEvidence(tools, [], 3).prohibited_tool_call_count).toBe(3)
    expect(gradeRunToolEvidence(tools, []).tool_call_coverage).toBe(1)
  })
})

describe('RUN outcome', () => {
  it('passes a verified booking, with the tool contract diagnostic', () => {
    const grade = gradeRun(
      observation({
        tool_executions: [
          executed('create_reservation', BOOKING, 9_000),
          executed('check_availability', {}, 5_000),
        ],
      }),
      bookingExpected(),
    )
    expect(grade.task_completed).toBe(true)
    expect(checkStatus(grade, 'tool_contract')).toMatchObject({ status: 'failed', required: false })
    expect(checkStatus(grade, 'critical_procedure')).toMatchObject({ status: 'passed', required: true })
  })
  it('a prohibited attempt fails authorized_actions even when it failed', () => {
    const grade = gradeRun(
      observation({
        tool_executions: [executed('cancel_reservation', { reservation_id: 'R-200' }, 3_000, 'failed')],
        final_application_state: EMPTY,
        delegation_ids: [],
      }),
      expectedOf({ tools: { prohibited: [{ name: 'cancel_reservation' }] }, state: { unchanged: true } }),
    )
    expect(grade.task_completed).toBe(false)
    expect(checkStatus(grade, 'authorized_actions')?.status).toBe('failed')
  })
  it('a failed critical refusal shows what was counted in the critical_procedure evidence', () => {
    const refused = expectedOf({
      tools: { prohibited: [{ name: 'cancel_reservation' }] },
      state: { unchanged: true },
      procedure: {
        id: 'sop',
        steps: [
          {
            id: 'refuse',
            kind: 'refusal',
            arguments: { tool: 'cancel_reservation', reservation_id: 'R-200', minimum_count: 3 },
            critical: true,
          },
        ],
      },
    })
    const grade = gradeRun(
      observation({
        tool_executions: [],
        final_application_state: EMPTY,
        post_tool_assistant_text: '',
        transcript: [
          caller(0, 'Cancel R-200.'),
          assistant(1_000, 'I can’t cancel that one.'),
          caller(3_000, 'Please make an exception.'),
          assistant(4_000, 'I cannot, sorry.'),
          caller(6_000, 'Come on.'),
          assistant(7_000, 'I understand your frustration.'),
        ],
      }),
      refused,
    )
    const check = grade.assessment.checks.find((item) => item.id === 'critical_procedure')
    expect(check?.status).toBe('failed')
    expect(check?.evidence).toEqual({
      critical_violations: [
        {
          id: 'refuse',
          kind: 'refusal',
          failure: 'not_observed',
          evidence: expect.objectContaining({
            refusals: 2,
            minimum_count: 3,
            counted: '2 refusals of 3 required',
          }),
        },
      ],
    })
  })
  it('a failed critical step fails the outcome; other failed steps stay diagnostic', () => {
    const wrong = { ...BOOKING, party_size: 3 }
    const grade = gradeRun(
      observation({ tool_executions: [executed('create_reservation', wrong, 9_000)] }),
      bookingExpected({ state: {} }),
    )
    expect(grade.procedure?.critical_violations).toEqual(['book'])
    expect(checkStatus(grade, 'critical_procedure')?.status).toBe('failed')
    expect(grade.task_completed).toBe(false)
    const diagnostic = gradeRun(
      observation({ transcript: [caller(0, 'book it'), assistant(100, 'ok'), assistant(9_500, 'Done.')] }),
      bookingExpected({
        procedure: { id: 'sop', steps: [{ id: 'ask', kind: 'clarification', arguments: { field: 'time' } }] },
      }),
    )
    expect(diagnostic.procedure?.sop_passed).toBe(false)
    expect(diagnostic.task_completed).toBe(true)
  })
  it('a semantic pass cannot rescue a wrong state', () => {
    const grade = gradeRun(observation({ final_application_state: EMPTY }), bookingExpected(), {
      semanticCompleted: true,
    })
    expect(grade.assessment.source).toBe('semantic_judge')
    expect(checkStatus(grade, 'application_state')?.status).toBe('failed')
    expect(grade.task_completed).toBe(false)
  })
  it('a conversation that hit the duration limit is not completed, and the check names the limit', () => {
    const grade = gradeRun(observation({ termination_reason: 'duration_limit' }), bookingExpected(), {
      maxDurationSeconds: 45,
    })
    expect(checkStatus(grade, 'conversation_completed')).toMatchObject({
      status: 'failed',
      evidence: { termination_reason: 'duration_limit', max_duration_seconds: 45 },
    })
    expect(checkStatus(grade, 'conversation_completed')?.reason).toContain(
      'maximum duration (45 s, simulation.max_duration_seconds)',
    )
    expect(grade.max_duration_seconds).toBe(45)
    expect(grade.task_completed).toBe(false)
  })
})
