import { describe, expect, test } from 'vitest'
import { bookingObservation, bookingScenario, expectedToolCall } from '../grading/grading-fixtures.ts'
import { executed, expectedOf } from '../grading/run/run-grading.test-helpers.ts'
import { gradeRun, type RunObservation, unjudgedRunGrade } from '../grading/run/run-outcome.ts'
import { gradeSingleTurn } from '../grading/single-turn.ts'
import type { SingleTurnObservation } from '../observability/observation.ts'
import { infrastructureErrorRow } from '../reporting/result-item.ts'
import { scenarioMatchers } from './matchers.ts'
import { initialMeta, type LiveEvalsTaskMeta } from './meta.ts'
import { bindRunToMeta, type ScenarioRun } from './scenario-run.ts'

expect.extend(scenarioMatchers)

const facts = bookingScenario()

function graded(observation: SingleTurnObservation): { run: ScenarioRun; meta: LiveEvalsTaskMeta } {
  const run: ScenarioRun = {
    interaction: 'single_turn',
    scenarioId: 'restaurant_001',
    architecture: 'responses',
    expected: facts.expected,
    observation,
    grade: gradeSingleTurn(observation, facts),
    failure: null,
    row: infrastructureErrorRow({ scenario_id: 'restaurant_001', stage: 'unused', message: '' }),
    detailsPath: null,
  }
  const meta = initialMeta({
    phase: 'crawl',
    scenarioId: 'restaurant_001',
    scenarioType: 'booking',
    architecture: 'responses',
    runDirectory: '/tmp/run',
  })
  bindRunToMeta(run, meta)
  return { run, meta }
}

function failureMessage(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the assertion passed')
}

const wrongTool = () =>
  bookingObservation({
    requested_tool_calls: [{ name: 'check_availability', arguments: { party_size: 2 } }],
    tool_executions: [],
    final_application_state: { reservations: [] },
  })

describe('toCompleteTask', () => {
  test('passes a completed task and records the grade on the bound meta', () => {
    const { run, meta } = graded(bookingObservation())
    expect(run).toCompleteTask()
    expect(meta.grades).toEqual([
      {
        matcher: 'toCompleteTask',
        passed: true,
        assertion_failed: false,
        failure_text: null,
        failed_checks: [],
        summary: 'every required check passed',
      },
    ])
  })

  test('fails a wrong tool call naming the failed checks and showing the evidence', () => {
    const { run, meta } = graded(wrongTool())
    const message = failureMessage(() => expect(run).toCompleteTask())
    expect(message).toContain('did not complete the task. Failed checks: application_state, tool_contract')
    expect(message).toContain('dimension:tool_selection')
    expect(message).toContain('"requested":["check_availability"]')
    expect(message).toContain('assistant said: "One moment."')
    expect(meta.grades[0]?.passed).toBe(false)
    expect(meta.grades[0]?.failed_checks).toContain('tool_contract')
  })

  test('a state mismatch shows the differing paths, expected vs final, not the states as one JSON line', () => {
    const { run } = graded(
      bookingObservation({
        final_application_state: {
          reservations: [{ guest_name: 'Mia', party_size: 2, reservation_id: 'R-001' }],
        },
      }),
    )
    const message = failureMessage(() => expect(run).toCompleteTask())
    expect(message).toContain(
      'application_state: The final state must match the expectation. Differences (expected vs final):\n' +
        '    reservations[0].guest_name: expected "maya", got "Mia"',
    )
    expect(message).toContain('dimension final_state:')
    expect(message).not.toContain('"initial":')
    expect(message.split('\n').every((line) => line.length < 200)).toBe(true)
  })

  test('an execution that failed before grading fails with its stage', () => {
    const { run, meta } = graded(bookingObservation())
    const broken = {
      ...run,
      observation: null,
      grade: null,
      failure: { stage: 'connection' as const, message: 'refused' },
    }
    bindRunToMeta(broken, meta)
    const message = failureMessage(() => expect(broken).toCompleteTask())
    expect(message).toContain('failed before it could be graded, at stage connection: refused')
    expect(meta.grades[0]?.failed_checks).toEqual(['infrastructure:connection'])
  })

  test('rejects a value that is not an executed scenario', () => {
    // @ts-expect-error the matchers take the liveSession fixture only; anything else is a type error too
    expect(failureMessage(() => expect({}).toCompleteTask())).toContain('value of the liveSession fixture')
  })

  test('.not fails when the task was completed', () => {
    const { run } = graded(bookingObservation())
    expect(failureMessage(() => expect(run).not.toCompleteTask())).toContain(
      'expected toCompleteTask to fail',
    )
  })
})

describe('toMatchToolCalls', () => {
  test('compares with the scenario tools by default and says where the calls differ', () => {
    const { run } = graded(wrongTool())
    const message = failureMessage(() => expect(run).toMatchToolCalls())
    expect(message).toContain('Failed checks: tool_call_correctness, tool_call_arg_correctness')
    expect(message).toContain('call 1: expected create_reservation, got check_availability')
  })

  test('takes an explicit expectation, arguments compared after normalization', () => {
    const { run, meta } = graded(bookingObservation())
    expect(run).toMatchToolCalls([expectedToolCall('create_reservation', { guest_name: ' MAYA ' })])
    const message = failureMessage(() =>
      expect(run).toMatchToolCalls([expectedToolCall('create_reservation', { party_size: 4 })]),
    )
    expect(message).toContain('arguments {"guest_name":"Maya","party_size":2')
    expect(message).toContain('do not contain {"party_size":4}')
    expect(meta.grades.map((grade) => grade.passed)).toEqual([true, false])
  })

  test('reports extra calls', () => {
    const { run } = graded(bookingObservation())
    const message = failureMessage(() => expect(run).toMatchToolCalls([]))
    expect(message).toContain('call 1: unexpected create_reservation')
  })

  test('takes only calls it can grade: arguments may be left out, a typo is a type error and a refusal', () => {
    const { run, meta } = graded(bookingObservation())
    expect(run).toMatchToolCalls([{ name: 'create_reservation' }])
    // @ts-expect-error `nam` is not a field of an expected call
    const typo = failureMessage(() => expect(run).toMatchToolCalls([{ nam: 'create_reservation' }]))
    expect(typo).toContain('toMatchToolCalls cannot grade these expected calls: expected[0]')
    expect(typo).toContain('nam')
    // A refusal is not a grade, and `.not` cannot turn it into a pass.
    // @ts-expect-error arguments are a JSON object of values the matcher can compare
    const notJson = failureMessage(() => expect(run).not.toMatchToolCalls([{ name: 'x', arguments: [1] }]))
    expect(notJson).toContain('expected[0].arguments: must be a JSON object')
    expect(meta.grades.map((grade) => grade.passed)).toEqual([true])
  })
})

describe('toFollowDelegationPolicy', () => {
  test('required delegation must happen; repeated ids count once', () => {
    const { run } = graded(bookingObservation({ delegation_ids: ['del_1', 'del_1'] }))
    expect(run).toFollowDelegationPolicy()
    const { run: silent, meta } = graded(bookingObservation({ delegation_ids: [] }))
    const message = failureMessage(() => expect(silent).toFollowDelegationPolicy())
    expect(message).toContain('delegation is required, but the assistant delegated 0 time(s)')
    expect(meta.grades[0]?.failed_checks).toEqual(['delegation_policy'])
  })
})

describe('matchers on a RUN conversation', () => {
  // A conversation that booked Patel for four on August 8 (after the caller corrected the date) and one that
  // booked nothing.
  const BOOKING = { guest_name: 'Patel', date: '2026-08-08', time: '19:00', party_size: 4 }
  const expected = expectedOf({
    delegation: 'required',
    tools: { required: [{ name: 'create_reservation', arguments: BOOKING }] },
    state: { reservations: [{ guest_name: 'Patel', date: '2026-08-08' }] },
  })
  function conversation(executions: RunObservation['tool_executions']): {
    run: ScenarioRun
    meta: LiveEvalsTaskMeta
  } {
    const finalState = {
      reservations: executions.length === 0 ? [] : [{ reservation_id: 'R-001', ...BOOKING }],
      authorized_reservation_ids: [],
    }
    const observation: RunObservation = {
      termination_reason: 'response_completed',
      delegation_ids: executions.length === 0 ? [] : ['del_1'],
      tool_executions: executions,
      initial_application_state: { reservations: [], authorized_reservation_ids: [] },
      final_application_state: finalState,
      transcript: [
        { role: 'user', text: 'Book a table for four on August 7 at 7 p.m.', start_ms: 200 },
        { role: 'assistant', text: 'What name should I put on the reservation?', start_ms: 4_000 },
        { role: 'user', text: 'Oh wait, August 8. Under Patel.', start_ms: 8_000 },
        { role: 'assistant', text: 'Your reservation for Patel is confirmed on August 8.', start_ms: 12_000 },
        { role: 'user', text: 'Thanks, goodbye.', start_ms: 16_000 },
      ],
      post_tool_assistant_text: 'Your reservation for Patel is confirmed on August 8.',
    }
    const grade = unjudgedRunGrade(gradeRun(observation, expected), { ...facts, expected })
    const run: ScenarioRun = {
      interaction: 'multi_turn',
      scenarioId: 'run_004',
      architecture: 'client',
      expected,
      observation,
      grade,
      failure: null,
      row: infrastructureErrorRow({ scenario_id: 'run_004', stage: 'unused', message: '' }),
      detailsPath: null,
    }
    const meta = initialMeta({
      phase: 'run',
      scenarioId: 'run_004',
      scenarioType: 'booking',
      architecture: 'client',
      runDirectory: '/tmp/run',
    })
    bindRunToMeta(run, meta)
    return { run, meta }
  }
  const booked = () => conversation([executed('create_reservation', BOOKING, 11_500)])

  test('toCompleteTask passes a verified booking and fails an empty one, showing executed calls', () => {
    expect(booked().run).toCompleteTask()
    const { run } = conversation([])
    const message = failureMessage(() => expect(run).toCompleteTask())
    expect(message).toContain('application_state')
    expect(message).toContain('executed tool calls: []')
  })

  test('toMatchToolCalls matches executed calls one to one in any order, ignoring the order of requests', () => {
    const later = { ...BOOKING, guest_name: 'Lee' }
    const { run } = conversation([
      executed('create_reservation', later, 9_000),
      executed('create_reservation', BOOKING, 11_500),
    ])
    expect(run).toMatchToolCalls([
      { name: 'create_reservation', arguments: BOOKING },
      { name: 'create_reservation', arguments: later },
    ])
    const message = failureMessage(() =>
      expect(booked().run).toMatchToolCalls([{ name: 'cancel_reservation', arguments: {} }]),
    )
    expect(message).toContain('0 of 1 expected tool call(s) executed with the expected status')
    expect(message).toContain('Failed checks: tool_call_coverage')
  })

  test('a failed execution does not count as a matched call', () => {
    const { run, meta } = conversation([executed('create_reservation', BOOKING, 11_500, 'failed')])
    expect(() => expect(run).toMatchToolCalls()).toThrow()
    expect(meta.grades.at(-1)).toMatchObject({ matcher: 'toMatchToolCalls', passed: false })
  })

  test('toFollowDelegationPolicy reads the conversation delegations', () => {
    expect(booked().run).toFollowDelegationPolicy()
    const message = failureMessage(() => expect(conversation([]).run).toFollowDelegationPolicy())
    expect(message).toContain('delegation is required, but the assistant delegated 0 time(s)')
  })
})
