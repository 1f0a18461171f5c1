// Builders for tests of the RUN judge: a simulated booking call that passes every deterministic check, with
// evaluator-only sentinels (goal, expected answer, criterion, SOP id) and the executor's private overrides, so a test
// can alter one fact and see which rule decides. The judge itself is the loopback fake OpenAI server of the
// single-turn judge tests (judge.test-helpers.ts).

import type { JsonObject } from '../json-values.ts'
import type { JudgeScenarioFacts } from '../judge/evidence.ts'
import { PRIVATE_SENTINEL } from '../judge/judge.test-helpers.ts'
import { BOOKING, executed, expectedOf } from './run-grading.test-helpers.ts'
import type { RunJudgeObserved } from './run-judge-evidence.ts'
import { gradeRun, type JudgedRunGrade, type RunObservation, unjudgedRunGrade } from './run-outcome.ts'

export const GOAL_SENTINEL = 'SENTINEL_CALLER_GOAL_8T'
export const ANSWER_SENTINEL = 'SENTINEL_RUN_EXPECTED_2P'
export const CRITERION_SENTINEL = 'SENTINEL_RUN_CRITERION_6V'
/** The SOP's id: it may reach every dimension's request except task_understanding's. */
export const SOP_SENTINEL = 'SENTINEL_SOP_booking_4W'

export const EMPTY_STATE: JsonObject = { reservations: [], authorized_reservation_ids: [] }
export const BOOKED_STATE: JsonObject = {
  reservations: [{ reservation_id: 'R-001', ...BOOKING, cancelled: false }],
  authorized_reservation_ids: [],
}

/** A booking call where every one of the five dimensions applies (multi-turn, a clarification step, a tool). */
export function bookingCallFacts(): JudgeScenarioFacts {
  return {
    scenario_id: 'run_booking_patel',
    scenario_type: 'booking',
    interaction: 'multi_turn',
    input_text: 'Hi, I would like a table for four on August 8 at 7 p.m.',
    has_conversation_context: false,
    conversation_context: null,
    simulation_goal: `Book a table for four under Patel on August 8 at 7 p.m. ${GOAL_SENTINEL}`,
    expected: expectedOf({
      answer: `The table for Patel is booked. ${ANSWER_SENTINEL}`,
      criteria: [`Confirms the reservation id. ${CRITERION_SENTINEL}`],
      tools: {
        required: [{ name: 'create_reservation', arguments: BOOKING }],
        prohibited: [{ name: 'cancel_reservation' }],
      },
      delegation: 'required',
      state: { reservations: [{ reservation_id: 'R-001', guest_name: 'Patel' }] },
      procedure: {
        id: SOP_SENTINEL,
        steps: [
          { id: 'ask_name', kind: 'clarification', arguments: { field: 'guest_name' } },
          { id: 'book', kind: 'tool', tool: 'create_reservation', arguments: BOOKING, critical: true },
          { id: 'confirm', kind: 'grounded_confirmation', after: ['book'] },
        ],
      },
    }),
  }
}

const line = (role: 'user' | 'assistant', start_ms: number, end_ms: number, text: string) => ({
  role,
  text,
  start_ms,
  end_ms,
})

/** What a correct assistant does in bookingCallFacts()'s call. */
export function bookingCallObservation(overrides: Partial<RunObservation> = {}): RunObservation {
  return {
    termination_reason: 'user_stopped',
    delegation_ids: ['del_1', 'del_1'],
    tool_executions: [
      { ...executed('create_reservation', BOOKING, 6_000), output: { reservation_id: 'R-001' } },
    ],
    initial_application_state: EMPTY_STATE,
    final_application_state: BOOKED_STATE,
    transcript: [
      line('user', 0, 1_200, 'Hi, I would like a table for four on August 8 at 7 p.m.'),
      line('assistant', 1_500, 2_800, 'Sure, what name should I put it under?'),
      line('user', 3_000, 3_400, 'Patel.'),
      line('assistant', 4_200, 4_700, 'One moment.'),
      line('assistant', 6_500, 8_000, 'You are booked, reservation R-001.'),
      line('user', 9_000, 9_600, 'Thanks, bye.'),
    ],
    post_tool_assistant_text: 'You are booked, reservation R-001.',
    backend_messages: ['Reservation R-001 is confirmed for Patel.'],
    ...overrides,
  }
}

export function bookingCallObserved(overrides: Partial<RunObservation> = {}): RunJudgeObserved {
  return {
    observation: bookingCallObservation(overrides),
    business_facts: {
      business_name: 'Juniper Table',
      availability_overrides: [{ date: '2026-08-08', time: '21:00', note: PRIVATE_SENTINEL }],
    },
  }
}

/** The deterministic grade the assess stage hands the judge: gradeRun, semantic dimensions not_assessed. */
export function deterministicGrade(facts: JudgeScenarioFacts, observed: RunJudgeObserved): JudgedRunGrade {
  return unjudgedRunGrade(gradeRun(observed.observation, facts.expected), facts)
}
