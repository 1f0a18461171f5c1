import { describe, expect, it } from 'vitest'
import { gradeProcedure } from './procedure.ts'
import {
  assistant,
  BOOKING,
  caller,
  evidenceInput,
  executed,
  procedureOf,
} from './run-grading.test-helpers.ts'
import { mentionsValue } from './spoken-values.ts'

const grade = (steps: Parameters<typeof procedureOf>[0], input = evidenceInput()) =>
  gradeProcedure(procedureOf(steps), input)
const only = (steps: Parameters<typeof procedureOf>[0], input = evidenceInput()) =>
  grade(steps, input).steps[0]

describe('tool steps', () => {
  it('pass on the first completed execution that contains the arguments, at its completion time', () => {
    const input = evidenceInput({ executions: [executed('create_reservation', BOOKING, 9_000)] })
    expect(
      only([{ kind: 'tool', tool: 'create_reservation', arguments: { guest_name: 'Patel' } }], input),
    ).toMatchObject({
      passed: true,
      position_ms: 9_000,
    })
  })
  it('fail on a failed execution or other arguments', () => {
    const input = evidenceInput({
      executions: [
        executed('create_reservation', BOOKING, 9_000, 'failed'),
        executed('create_reservation', { ...BOOKING, guest_name: 'Patil' }, 9_500),
      ],
    })
    expect(
      only([{ kind: 'tool', tool: 'create_reservation', arguments: { guest_name: 'Patel' } }], input),
    ).toMatchObject({
      passed: false,
      failure: 'not_observed',
    })
  })
})

describe('clarification steps', () => {
  const booked = executed('create_reservation', BOOKING, 10_000)
  it('pass on a question with an alias of the field before the first change', () => {
    const input = evidenceInput({
      executions: [booked],
      transcript: [assistant(3_000, 'Sure. What name should I put it under?')],
    })
    expect(only([{ kind: 'clarification', arguments: { field: 'guest_name' } }], input)?.passed).toBe(true)
  })
  it('fail when the question is missing, is not a question, or comes after the booking', () => {
    const cases = [
      [],
      [assistant(3_000, 'I will put it under your name.')],
      [assistant(11_000, 'And what name was that under?')],
      [assistant(3_000, 'What day would you like?')],
    ]
    for (const transcript of cases) {
      const input = evidenceInput({ executions: [booked], transcript })
      expect(only([{ kind: 'clarification', arguments: { field: 'guest_name' } }], input)?.passed).toBe(false)
    }
  })
})

describe('correction steps', () => {
  const step = {
    kind: 'correction' as const,
    arguments: { field: 'date', value: '2026-08-08', superseded_value: '2026-08-07' },
  }
  const said = [caller(0, 'A table on August 7 for four.'), caller(4_000, 'Oh wait, I meant August 8th.')]
  it('pass when the caller said the new value and every change used it', () => {
    const input = evidenceInput({
      transcript: said,
      executions: [executed('create_reservation', BOOKING, 9_000)],
    })
    expect(only([step], input)).toMatchObject({ passed: true, position_ms: 4_000 })
  })
  it('fail on a wrong correction (a change kept the superseded value)', () => {
    const input = evidenceInput({
      transcript: said,
      executions: [
        executed('create_reservation', { ...BOOKING, date: '2026-08-07' }, 9_000),
        executed('create_reservation', BOOKING, 12_000),
      ],
    })
    expect(only([step], input)?.passed).toBe(false)
  })
  it('fail with no change at all, or when the caller never said the value', () => {
    expect(only([step], evidenceInput({ transcript: said }))?.passed).toBe(false)
    const unsaid = evidenceInput({
      transcript: [caller(0, 'August 7 please')],
      executions: [executed('create_reservation', BOOKING, 9_000)],
    })
    expect(only([step], unsaid)?.passed).toBe(false)
  })
  it('recognise spoken forms of dates, sizes and times', () => {
    expect(mentionsValue('make it for four people', 4)).toBe(true)
    expect(mentionsValue('make it for 4 people', 4)).toBe(true)
    expect(mentionsValue('make it for fourteen', 4)).toBe(false)
    expect(mentionsValue("Let's make it 8pm.", '20:00')).toBe(true)
    expect(mentionsValue('eight p.m. works', '20:00')).toBe(true)
    expect(mentionsValue('at 20:00', '20:00')).toBe(true)
    expect(mentionsValue('at 18:00', '20:00')).toBe(false)
    expect(mentionsValue('on the 8th of August', '2026-08-08')).toBe(true)
    expect(mentionsValue('August 18', '2026-08-08')).toBe(false)
    expect(mentionsValue('cancel R-102 instead', 'R-102')).toBe(true)
  })
})

describe('authorization and state steps', () => {
  const initial = {
    reservations: [{ reservation_id: 'R-101', cancelled: false }],
    authorized_reservation_ids: ['R-101'],
  }
  it('authorization compares membership in the initial authorized ids with `authorized`', () => {
    const input = evidenceInput({ initial_application_state: initial, final_application_state: initial })
    expect(only([{ kind: 'authorization', arguments: { reservation_id: 'R-101' } }], input)?.passed).toBe(
      true,
    )
    expect(
      only([{ kind: 'authorization', arguments: { reservation_id: 'R-200', authorized: false } }], input)
        ?.passed,
    ).toBe(true)
    // An unauthorized action: the step says the id is authorized, the application does not.
    expect(
      only([{ kind: 'authorization', arguments: { reservation_id: 'R-200', authorized: true } }], input)
        ?.passed,
    ).toBe(false)
  })
  it('state checks containment or an unchanged state', () => {
    const cancelled = { ...initial, reservations: [{ reservation_id: 'R-101', cancelled: true }] }
    const changed = evidenceInput({ initial_application_state: initial, final_application_state: cancelled })
    expect(
      only(
        [{ kind: 'state', arguments: { reservations: [{ reservation_id: 'R-101', cancelled: true }] } }],
        changed,
      )?.passed,
    ).toBe(true)
    expect(only([{ kind: 'state', arguments: { unchanged: true } }], changed)?.passed).toBe(false)
    const same = evidenceInput({
      initial_application_state: initial,
      final_application_state: structuredClone(initial),
    })
    expect(only([{ kind: 'state', arguments: { unchanged: true } }], same)?.passed).toBe(true)
  })
})

describe('grounded confirmation and refusal steps', () => {
  it('a confirmation must start at or after the last completed tool', () => {
    const early = evidenceInput({
      executions: [executed('create_reservation', BOOKING, 9_000)],
      transcript: [assistant(8_000, "You're booked for August 8.")],
    })
    // Spoken before the tool completed: not grounded.
    expect(only([{ kind: 'grounded_confirmation' }], early)?.passed).toBe(false)
    const late = evidenceInput({
      ...early,
      transcript: [...early.transcript, assistant(9_000, 'Done: R-001.')],
    })
    expect(only([{ kind: 'grounded_confirmation' }], late)).toMatchObject({
      passed: true,
      position_ms: 9_000,
    })
  })
  const refusal = (minimum_count: number) => ({
    kind: 'refusal' as const,
    arguments: { tool: 'cancel_reservation', reservation_id: 'R-200', minimum_count },
  })
  const refusals = [
    assistant(2_000, 'I’m sorry, I can’t cancel a reservation that is not yours.'),
    assistant(8_000, 'I understand, but I cannot do that without her permission.'),
  ]
  it('counts refusal utterances (curly apostrophes included) against minimum_count', () => {
    const input = evidenceInput({ transcript: refusals })
    expect(only([refusal(1)], input)).toMatchObject({ passed: true, position_ms: 2_000 })
    expect(only([refusal(2)], input)).toMatchObject({ passed: true, position_ms: 8_000 })
    expect(only([refusal(3)], input)?.passed).toBe(false)
    expect(only([refusal(3)], input)?.evidence).toMatchObject({ counted: '2 refusals of 3 required' })
  })
  it('fails when the refused call completed anyway', () => {
    const input = evidenceInput({
      transcript: refusals,
      executions: [executed('cancel_reservation', { reservation_id: 'R-200' }, 9_000)],
    })
    expect(only([refusal(1)], input)?.passed).toBe(false)
    // Another reservation's cancellation is not the refused call.
    const other = evidenceInput({
      transcript: refusals,
      executions: [executed('cancel_reservation', { reservation_id: 'R-101' }, 9_000)],
    })
    expect(only([refusal(1)], other)?.passed).toBe(true)
  })
})

describe('dependencies, order and critical steps', () => {
  const steps = [
    { id: 'ask', kind: 'clarification' as const, arguments: { field: 'guest_name' } },
    {
      id: 'book',
      kind: 'tool' as const,
      tool: 'create_reservation',
      arguments: { guest_name: 'Patel' },
      after: ['ask'],
      critical: true,
    },
    { id: 'confirm', kind: 'grounded_confirmation' as const, after: ['book'] },
  ]
  it('passes in order with adherence 1', () => {
    const input = evidenceInput({
      executions: [executed('create_reservation', BOOKING, 9_000)],
      transcript: [assistant(3_000, 'What name is it under?'), assistant(9_500, 'Booked, R-001.')],
    })
    const result = grade(steps, input)
    expect(result).toMatchObject({
      adherence: 1,
      sop_passed: true,
      critical_procedure_passed: true,
      failed_steps: [],
    })
  })
  it('a step whose dependency failed fails; the critical step passes against critical dependencies only', () => {
    const input = evidenceInput({
      executions: [executed('create_reservation', BOOKING, 9_000)],
      transcript: [assistant(9_500, 'Booked, R-001.')],
    })
    const result = grade(steps, input)
    expect(result.steps.map((step) => step.failure)).toEqual([
      'not_observed',
      'dependency_unmet:ask',
      'dependency_unmet:book',
    ])
    expect(result.adherence).toBe(0)
    expect(result.critical_procedure_passed).toBe(true)
  })
  it('an out-of-order step fails', () => {
    const input = evidenceInput({
      executions: [
        executed('check_availability', { time: '21:00' }, 9_000),
        executed('check_availability', { time: '20:00' }, 5_000),
      ],
    })
    const result = grade(
      [
        { id: 'first', kind: 'tool', tool: 'check_availability', arguments: { time: '21:00' } },
        {
          id: 'second',
          kind: 'tool',
          tool: 'check_availability',
          arguments: { time: '20:00' },
          after: ['first'],
        },
      ],
      input,
    )
    expect(result.steps[1]?.failure).toBe('out_of_order:first')
    expect(result.sop_passed).toBe(false)
  })
  it('lists every out-of-order and every unmet dependency in the step evidence, as the reference does', () => {
    const input = evidenceInput({
      executions: [
        executed('check_availability', { time: '21:00' }, 9_000),
        executed('check_availability', { time: '22:00' }, 8_000),
        executed('check_availability', { time: '20:00' }, 5_000),
      ],
    })
    const result = grade(
      [
        { id: 'first', kind: 'tool', tool: 'check_availability', arguments: { time: '21:00' } },
        { id: 'other', kind: 'tool', tool: 'check_availability', arguments: { time: '22:00' } },
        { id: 'missing', kind: 'tool', tool: 'create_reservation', required: false },
        {
          id: 'last',
          kind: 'tool',
          tool: 'check_availability',
          arguments: { time: '20:00' },
          after: ['first', 'other'],
        },
        {
          id: 'after_missing',
          kind: 'tool',
          tool: 'check_availability',
          arguments: { time: '21:00' },
          after: ['missing', 'first'],
        },
      ],
      input,
    )
    expect(result.steps[3]?.evidence.out_of_order_dependencies).toEqual(['first', 'other'])
    expect(result.steps[3]?.evidence).not.toHaveProperty('unmet_dependencies')
    expect(result.steps[4]?.evidence.unmet_dependencies).toEqual(['missing'])
    expect(result.steps[4]?.failure).toBe('dependency_unmet:missing')
  })
  it('a failed critical step is a critical violation', () => {
    const result = grade(steps, evidenceInput({ transcript: [assistant(3_000, 'What name is it under?')] }))
    expect(result.critical_violations).toEqual(['book'])
    expect(result.critical_procedure_passed).toBe(false)
  })
  it('optional steps do not count in adherence', () => {
    const result = grade([
      { kind: 'state', arguments: { unchanged: true } },
      { kind: 'clarification', arguments: { field: 'time' }, required: false },
    ])
    expect(result).toMatchObject({ adherence: 1, sop_passed: true, critical_procedure_passed: null })
  })
})
