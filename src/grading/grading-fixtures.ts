// Builders for grading inputs: a passing single-turn booking that tests alter one fact at a time, so each test
// shows exactly which rule it exercises. Used by tests here and by phase tests that need a realistic grade.

import type { SingleTurnObservation, ToolExecution } from '../observability/observation.ts'
import type { ExpectedOutcome, ExpectedToolCall, ScenarioFacts } from './scenario-facts.ts'

export function expectedToolCall(
  name: string,
  args: Record<string, unknown> = {},
  status: ExpectedToolCall['status'] = 'completed',
): ExpectedToolCall {
  return { name, arguments: args, status }
}

export function expectedOutcome(overrides: Partial<ExpectedOutcome> = {}): ExpectedOutcome {
  return {
    answer: 'The table for Maya is booked.',
    criteria: [],
    tools: { required: [], prohibited: [] },
    golden_path: { turns: 2, delegations: null, steps: [] },
    diagnostic_terms: [],
    delegation: 'optional',
    state: {},
    procedure: null,
    ...overrides,
  }
}

export function scenarioFacts(overrides: Partial<ScenarioFacts> = {}): ScenarioFacts {
  return {
    scenario_id: 'restaurant_001',
    scenario_type: 'booking',
    interaction: 'single_turn',
    input_text: 'Book a table for two under Maya tomorrow at seven.',
    has_conversation_context: false,
    expected: expectedOutcome(),
    ...overrides,
  }
}

const BOOKING_ARGUMENTS = { guest_name: 'Maya', party_size: 2, date: '2026-08-06', time: '19:00' }

export function execution(overrides: Partial<ToolExecution> = {}): ToolExecution {
  return {
    call_id: 'call_1',
    name: 'create_reservation',
    arguments: BOOKING_ARGUMENTS,
    status: 'completed',
    output: { reservation_id: 'R-001' },
    completed_at_ms: 4_000,
    ...overrides,
  }
}

/** A booking scenario that requires delegation and one create_reservation, expecting Maya's reservation. */
export function bookingScenario(overrides: Partial<ExpectedOutcome> = {}): ScenarioFacts {
  return scenarioFacts({
    expected: expectedOutcome({
      delegation: 'required',
      tools: {
        required: [expectedToolCall('create_reservation', { guest_name: 'maya', party_size: 2 })],
        prohibited: [],
      },
      state: { reservations: [{ guest_name: 'maya' }] },
      ...overrides,
    }),
  })
}

/** What a correct assistant does for bookingScenario(). */
export function bookingObservation(overrides: Partial<SingleTurnObservation> = {}): SingleTurnObservation {
  return {
    termination_reason: 'response_completed',
    delegation_ids: ['del_1'],
    requested_tool_calls: [{ name: 'create_reservation', arguments: BOOKING_ARGUMENTS }],
    tool_executions: [execution()],
    initial_application_state: { reservations: [] },
    final_application_state: {
      reservations: [{ guest_name: 'Maya', party_size: 2, reservation_id: 'R-001' }],
    },
    transcript: [
      { role: 'user', text: 'Book a table for two under Maya tomorrow at seven.', start_ms: 0 },
      { role: 'assistant', text: 'One moment.', start_ms: 2_500 },
      { role: 'assistant', text: 'You are booked, reservation R-001.', start_ms: 4_500 },
    ],
    post_tool_assistant_text: 'You are booked, reservation R-001.',
    caller_turn_count: 1,
    assistant_response_episode_count: 1,
    closing_turn_count: 0,
    ...overrides,
  }
}
