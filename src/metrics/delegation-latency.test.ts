import { describe, expect, test } from 'vitest'
import { type DelegationLatencyInput, delegationLatency, requestLatencies } from './delegation-latency.ts'
import type { CallerTurn } from './response-opportunities.ts'

const turn = (start_ms: number, end_ms: number, kind: CallerTurn['kind'] = 'request'): CallerTurn => ({
  start_ms,
  end_ms,
  kind,
})
const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })

function input(overrides: Partial<DelegationLatencyInput>): DelegationLatencyInput {
  return {
    caller_turns: [],
    assistant_voiced: [],
    work: { delegation_starts_ms: [], tool_results_ms: [] },
    observation_end_ms: 60_000,
    call_start_ms: 0,
    ...overrides,
  }
}

// A tool turn: the request ends at 2 000; the delegation starts at 2 300, "one moment" at 2 400-3 000; the first
// tool result at 4 000 and a second at 6 000; the assistant speaks at 4 500-5 500 (first result) and 6 200-8 000
// (the answer after the last result). A non-tool turn: the request 10 000-11 000, the answer at 11 600.
const twoTurns = input({
  caller_turns: [turn(0, 2_000), turn(10_000, 11_000)],
  assistant_voiced: [
    voiced(2_400, 3_000),
    voiced(4_500, 5_500),
    voiced(6_200, 8_000),
    voiced(11_600, 13_000),
  ],
  work: { delegation_starts_ms: [2_300], tool_results_ms: [4_000, 6_000] },
})

describe('delegation latency, split', () => {
  test('a tool turn: first word, acknowledgement, first result spoken and verified answer, each from the request end', () => {
    expect(requestLatencies(twoTurns)[0]).toEqual({
      tool_turn: true,
      first_word_ms: 2_400 - 2_000, // the "one moment" is the first word: 400
      acknowledgement_ms: 2_400 - 2_000, // first onset after the delegation (2 300), before the first result: 400
      first_result_spoken_ms: 4_500 - 2_000, // first onset at or after the first result (4 000): 2 500
      verified_answer_ms: 6_200 - 2_000, // first onset after the last result (6 000): 4 200
    })
  })
  test('a non-tool turn has no acknowledgement and no delegated result: its first word is its answer', () => {
    expect(requestLatencies(twoTurns)[1]).toEqual({
      tool_turn: false,
      first_word_ms: 11_600 - 11_000,
      acknowledgement_ms: null,
      first_result_spoken_ms: null,
      verified_answer_ms: 11_600 - 11_000,
    })
  })
  test('tool and non-tool turns are summarised apart; no greeting when the caller spoke first', () => {
    expect(delegationLatency(twoTurns)).toEqual({
      tool_turns: {
        count: 1,
        first_word_ms: 400,
        acknowledgement_ms: 400,
        first_result_spoken_ms: 2_500,
        verified_answer_ms: 4_200,
      },
      non_tool_turns: { count: 1, first_word_ms: 600, verified_answer_ms: 600 },
      greeting_latency_ms: null,
    })
  })
  test('a tool turn without an acknowledgement: silent until the result, so only the acknowledgement is null', () => {
    const [latency] = requestLatencies(
      input({
        caller_turns: [turn(0, 1_000)],
        assistant_voiced: [voiced(3_500, 5_000)],
        work: { delegation_starts_ms: [1_200], tool_results_ms: [3_000] },
      }),
    )
    // The first word (3 500 - 1 000 = 2 500) comes after the result at 3 000: it is the result, not an acknowledgement.
    expect(latency).toEqual({
      tool_turn: true,
      first_word_ms: 2_500,
      acknowledgement_ms: null,
      first_result_spoken_ms: 2_500,
      verified_answer_ms: 2_500,
    })
  })
  test('a delegation whose result never came: acknowledged, but no result spoken and no verified answer', () => {
    const [latency] = requestLatencies(
      input({
        caller_turns: [turn(0, 1_000)],
        assistant_voiced: [voiced(1_300, 1_900)],
        work: { delegation_starts_ms: [1_100], tool_results_ms: [] },
      }),
    )
    expect(latency).toEqual({
      tool_turn: true,
      first_word_ms: 300,
      acknowledgement_ms: 300,
      first_result_spoken_ms: null,
      verified_answer_ms: null,
    })
  })
  test('means over several tool turns leave an unmeasured moment out instead of counting it as 0', () => {
    const latency = delegationLatency(
      input({
        // Turn 1: ack at 1 400 (400), result 3 000 spoken at 3 200 (2 200). Turn 2 (10 000-11 000): no ack,
        // result at 12 000 spoken at 12 500 (1 500).
        caller_turns: [turn(0, 1_000), turn(10_000, 11_000)],
        assistant_voiced: [voiced(1_400, 1_800), voiced(3_200, 4_000), voiced(12_500, 13_000)],
        work: { delegation_starts_ms: [1_100, 11_100], tool_results_ms: [3_000, 12_000] },
      }),
    )
    expect(latency.tool_turns).toEqual({
      count: 2,
      first_word_ms: (400 + 1_500) / 2,
      acknowledgement_ms: 400, // only turn 1 had one: mean over one, not (400 + 0) / 2
      first_result_spoken_ms: (2_200 + 1_500) / 2,
      verified_answer_ms: (2_200 + 1_500) / 2,
    })
    expect(latency.non_tool_turns).toEqual({ count: 0, first_word_ms: null, verified_answer_ms: null })
  })
  test('an assistant-first opening has a greeting latency from the call start; nothing at all is null everywhere', () => {
    const opening = delegationLatency(
      input({
        call_start_ms: 200,
        caller_turns: [turn(4_000, 5_000)],
        assistant_voiced: [voiced(1_100, 3_000), voiced(5_400, 6_000)],
      }),
    )
    expect(opening.greeting_latency_ms).toBe(1_100 - 200)
    expect(opening.non_tool_turns).toEqual({ count: 1, first_word_ms: 400, verified_answer_ms: 400 })
    expect(delegationLatency(input({}))).toEqual({
      tool_turns: {
        count: 0,
        first_word_ms: null,
        acknowledgement_ms: null,
        first_result_spoken_ms: null,
        verified_answer_ms: null,
      },
      non_tool_turns: { count: 0, first_word_ms: null, verified_answer_ms: null },
      greeting_latency_ms: null,
    })
  })
  test('backchannels and closings are not requests; an unanswered request has a null first word', () => {
    const latency = delegationLatency(
      input({
        caller_turns: [turn(0, 1_000), turn(1_500, 1_800, 'backchannel'), turn(5_000, 6_000, 'closing')],
        observation_end_ms: 7_000,
      }),
    )
    expect(latency.non_tool_turns).toEqual({ count: 1, first_word_ms: null, verified_answer_ms: null })
  })
})
