import { describe, expect, it } from 'vitest'
import { compactAssessment } from '../outcome.ts'
import { assistant, BOOKING, caller, executed, expectedOf } from './run-grading.test-helpers.ts'
import { gradeRun, type RunObservation } from './run-outcome.ts'
import { changesAccountedByState, gradeSideEffects } from './side-effects.ts'

const EMPTY = { reservations: [], authorized_reservation_ids: [] }
const reservation = (id: string) => ({ reservation_id: id, ...BOOKING, cancelled: false })

const booking = expectedOf({
  tools: { required: [{ name: 'create_reservation', arguments: BOOKING }] },
  state: { reservations: [{ reservation_id: 'R-001', guest_name: 'Patel' }] },
})

function doubleBooked(): RunObservation {
  return {
    termination_reason: 'response_completed',
    delegation_ids: ['d1', 'd2'],
    tool_executions: [
      executed('check_availability', BOOKING, 8_000),
      executed('create_reservation', BOOKING, 9_000),
      { ...executed('create_reservation', BOOKING, 14_000), call_id: 'call_second_booking' },
    ],
    initial_application_state: EMPTY,
    final_application_state: { reservations: [reservation('R-001'), reservation('R-002')] },
    transcript: [
      caller(0, 'A table for four under Patel.'),
      assistant(9_200, 'Booked: R-001.'),
      caller(11_000, 'Confirm the booking, then end the call.'),
      assistant(14_200, 'Booked: R-002.'),
    ],
    post_tool_assistant_text: 'Booked: R-002.',
  }
}

describe('no_unexpected_side_effects (beyond the reference)', () => {
  it('a double booking whose final state still holds the expected reservation fails, naming the second call', () => {
    const grade = gradeRun(doubleBooked(), booking)
    // The reference's own checks pass: the expected reservation is in the final state.
    expect(grade.assessment.checks.find((check) => check.id === 'application_state')?.status).toBe('passed')
    const check = grade.assessment.checks.find((item) => item.id === 'no_unexpected_side_effects')
    expect(check).toMatchObject({ status: 'failed', required: true })
    expect(check?.evidence).toEqual({
      completed: { create_reservation: 2 },
      allowed: { create_reservation: 1 },
      duplicate_calls: [{ call_id: 'call_second_booking', name: 'create_reservation', arguments: BOOKING }],
    })
    expect(check?.reason).toContain('create_reservation completed 2 times where 1 is accounted for')
    expect(check?.reason).toContain('call_second_booking')
    expect(grade.task_completed).toBe(false)
    expect(grade.assessment.rationale).toBe('Required checks failed: no_unexpected_side_effects.')
  })

  it('the reported assessment keeps the reference check list; its verdict still counts the failure', () => {
    const compact = compactAssessment(gradeRun(doubleBooked(), booking).assessment)
    expect(compact.checks.map((check) => check.id)).not.toContain('no_unexpected_side_effects')
    expect(compact.passed).toBe(false)
  })

  it('one booking passes; a second one the expected state describes is accounted for', () => {
    const single = doubleBooked()
    single.tool_executions = single.tool_executions.slice(0, 2)
    expect(gradeRun(single, booking).task_completed).toBe(true)
    const two = expectedOf({
      tools: { required: [{ name: 'create_reservation', arguments: BOOKING }] },
      state: { reservations: [{ reservation_id: 'R-001' }, { reservation_id: 'R-002' }] },
    })
    expect(gradeSideEffects(two, doubleBooked().tool_executions, EMPTY).status).toBe('passed')
  })

  it('a mutating tool the golden path leaves out is a side effect; read-only and failed calls never are', () => {
    const cancel = expectedOf({
      tools: { required: [{ name: 'cancel_reservation', arguments: { reservation_id: 'R-101' } }] },
      state: { reservations: [{ reservation_id: 'R-101', cancelled: true }] },
    })
    const initial = { reservations: [{ reservation_id: 'R-101', cancelled: false }] }
    const extra = executed('create_reservation', BOOKING, 5_000)
    const check = gradeSideEffects(
      cancel,
      [
        executed('check_availability', BOOKING, 1_000),
        executed('check_availability', BOOKING, 2_000),
        executed('cancel_reservation', { reservation_id: 'R-101' }, 3_000),
        executed('cancel_reservation', { reservation_id: 'R-101' }, 4_000, 'failed'),
        extra,
      ],
      initial,
    )
    expect(check.status).toBe('failed')
    expect(check.evidence.duplicate_calls).toEqual([
      { call_id: extra.call_id, name: 'create_reservation', arguments: BOOKING },
    ])
  })

  it('is diagnostic (not required) when the scenario expects no state change', () => {
    const refusal = expectedOf({ state: { unchanged: true } })
    const check = gradeSideEffects(refusal, [], EMPTY)
    expect(check).toMatchObject({ status: 'passed', required: false })
  })

  it('counts the changes an expected state describes: new or changed list items, at least one', () => {
    const initial = {
      reservations: [
        { reservation_id: 'R-102', cancelled: false },
        { reservation_id: 'R-210', cancelled: false },
      ],
    }
    expect(
      changesAccountedByState(
        {
          reservations: [
            { reservation_id: 'R-102', cancelled: true },
            { reservation_id: 'R-210', cancelled: false },
          ],
        },
        initial,
      ),
    ).toBe(1)
    expect(changesAccountedByState({ reservation_created: true }, EMPTY)).toBe(1)
    expect(changesAccountedByState({ unchanged: true }, EMPTY)).toBe(0)
  })
})
