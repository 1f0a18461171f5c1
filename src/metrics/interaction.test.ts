import { describe, expect, test } from 'vitest'
import { AudioMetricsSchema } from '../reporting/result-schema.ts'
import {
  analyzeInteraction,
  type CallerTurn,
  computeInteractionMetrics,
  type InteractionTimeline,
} from './interaction.ts'
import { subtractIntervals, totalDuration, unionIntervals } from './intervals.ts'

const request = (start_ms: number, end_ms: number): CallerTurn => ({ start_ms, end_ms, kind: 'request' })
const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })

function timeline(overrides: Partial<InteractionTimeline>): InteractionTimeline {
  return {
    caller_turns: [],
    assistant_turns: [],
    delegation_intervals: [],
    observation_end_ms: 60_000,
    ...overrides,
  }
}

describe('intervals', () => {
  test('union merges touching and overlapping intervals only', () => {
    expect(unionIntervals([voiced(10, 20), voiced(0, 10), voiced(21, 30), voiced(25, 26)])).toEqual([
      voiced(0, 20),
      voiced(21, 30),
    ])
    expect(totalDuration([voiced(0, 10), voiced(5, 15)])).toBe(15)
  })
  test('subtract leaves the uncovered parts', () => {
    expect(subtractIntervals([voiced(0, 100)], [voiced(10, 20), voiced(50, 120)])).toEqual([
      voiced(0, 10),
      voiced(20, 50),
    ])
  })
})

describe('response rate and latency', () => {
  test('answered when the first assistant onset is within the deadline (inclusive)', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 1_000), request(10_000, 11_000)],
        assistant_turns: [[voiced(1_500, 3_000)], [voiced(16_000, 17_000)]],
      }),
    )
    expect(metrics.response_rate).toBe(1)
    expect(metrics.response_latency_ms).toBe((500 + 5_000) / 2)
    expect(metrics.response_opportunities).toMatchObject({ response_count: 2, response_total: 2 })
  })
  test('missed when the deadline expired; a later onset is counted as late', () => {
    const { metrics, caller_turns } = analyzeInteraction(
      timeline({ caller_turns: [request(0, 1_000)], assistant_turns: [[voiced(6_001, 7_000)]] }),
    )
    expect(metrics.response_rate).toBe(0)
    expect(metrics.response_latency_ms).toBeNull()
    expect(metrics.response_opportunities).toMatchObject({ no_response_count: 1, response_late_count: 1 })
    expect(caller_turns[0]?.outcome).toEqual({
      status: 'missed',
      reason: 'deadline_expired',
      late_latency_ms: 5_001,
    })
  })
  test('missed when the next eligible request arrives first', () => {
    const { metrics, caller_turns } = analyzeInteraction(
      timeline({
        caller_turns: [request(0, 1_000), request(2_000, 3_000)],
        assistant_turns: [[voiced(3_500, 4_000)]],
      }),
    )
    expect(metrics.response_opportunities).toMatchObject({ response_count: 1, no_response_count: 1 })
    expect(caller_turns.map((turn) => turn.outcome.status)).toEqual(['missed', 'answered'])
    expect(caller_turns[0]?.outcome).toMatchObject({ reason: 'next_eligible_request' })
    expect(metrics.response_rate).toBe(0.5)
  })
  test('censored when observation ends before the deadline: out of the denominator', () => {
    const metrics = computeInteractionMetrics(
      timeline({ caller_turns: [request(0, 1_000)], observation_end_ms: 3_000 }),
    )
    expect(metrics.response_rate).toBeNull()
    expect(metrics.response_opportunities).toMatchObject({
      response_censored_count: 1,
      response_total: 0,
      response_eligible_count: 1,
      caller_turn_count: 1,
    })
  })
  test('backchannels, closings and requests ending while the assistant speaks are excluded', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [
          { start_ms: 0, end_ms: 300, kind: 'backchannel' },
          { start_ms: 1_000, end_ms: 2_000, kind: 'closing' },
          request(5_000, 6_000),
        ],
        assistant_turns: [[voiced(5_500, 6_000)]],
      }),
    )
    expect(metrics.response_exclusion_reasons).toEqual({
      backchannel: 1,
      caller_closing: 1,
      assistant_active_at_request_end: 1,
    })
    expect(metrics.response_rate).toBeNull()
    expect(metrics.response_opportunities?.caller_turn_count).toBe(3)
  })
  test('exclusion reasons list only the reasons that occurred, and {} when none did', () => {
    const closingOnly = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 1_000), { start_ms: 3_000, end_ms: 3_500, kind: 'closing' }],
        assistant_turns: [[voiced(1_400, 2_500)]],
      }),
    )
    expect(closingOnly.response_exclusion_reasons).toEqual({ caller_closing: 1 })
    const none = computeInteractionMetrics(
      timeline({ caller_turns: [request(0, 1_000)], assistant_turns: [[voiced(1_400, 2_500)]] }),
    )
    expect(none.response_exclusion_reasons).toEqual({})
  })
  test('response_opportunities has exactly the reference keys, in its order, and the counts add up', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [
          request(0, 1_000),
          request(10_000, 11_000),
          { start_ms: 20_000, end_ms: 20_500, kind: 'closing' },
          request(30_000, 31_000),
        ],
        assistant_turns: [[voiced(1_400, 2_500)], [voiced(17_000, 18_000)]],
        observation_end_ms: 33_000,
      }),
    )
    expect(Object.keys(metrics.response_opportunities)).toEqual([
      'caller_turn_count',
      'response_eligible_count',
      'response_censored_count',
      'response_excluded_count',
      'response_late_count',
      'response_total',
      'response_count',
      'no_response_count',
    ])
    expect(metrics.response_opportunities).toEqual({
      caller_turn_count: 4,
      response_eligible_count: 3,
      response_censored_count: 1,
      response_excluded_count: 1,
      response_late_count: 1,
      response_total: 2,
      response_count: 1,
      no_response_count: 1,
    })
    expect(AudioMetricsSchema.parse(metrics)).toEqual(metrics)
  })
  test('a next request exactly at the deadline does not pre-empt it: the deadline expired', () => {
    const { caller_turns } = analyzeInteraction(
      timeline({ caller_turns: [request(0, 1_000), request(6_000, 7_000)], observation_end_ms: 20_000 }),
    )
    expect(caller_turns[0]?.outcome).toEqual({
      status: 'missed',
      reason: 'deadline_expired',
      late_latency_ms: null,
    })
    const earlier = analyzeInteraction(
      timeline({ caller_turns: [request(0, 1_000), request(5_999, 7_000)], observation_end_ms: 20_000 }),
    )
    expect(earlier.caller_turns[0]?.outcome).toMatchObject({
      status: 'missed',
      reason: 'next_eligible_request',
    })
  })
  test('rates are rounded to 4 places and the latency to 3, as the reference writes them', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [
          request(0, 1_000),
          request(10_000, 11_000),
          request(20_000, 21_000),
          request(30_000, 31_000),
        ],
        assistant_turns: [[voiced(1_400, 2_000)], [voiced(11_500, 12_000)], [voiced(21_500, 22_000)]],
      }),
    )
    expect(metrics.response_latency_ms).toBe(466.667)
    expect(metrics.response_rate).toBe(0.75)
    const thirds = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 1_000), request(10_000, 11_000), request(20_000, 21_000)],
        assistant_turns: [[voiced(1_400, 2_000)]],
      }),
    )
    expect(thirds.response_rate).toBe(0.3333)
  })
  test('a custom deadline is honoured and recorded', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 1_000)],
        assistant_turns: [[voiced(2_500, 3_000)]],
        response_deadline_ms: 1_000,
      }),
    )
    expect(metrics.response_rate).toBe(0)
    expect(metrics.response_deadline_ms).toBe(1_000)
  })
})

describe('interruptions, speaking time and floor-hold silence', () => {
  test('assistant onsets inside a caller request count per eligible turn', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 4_000), request(10_000, 11_000)],
        assistant_turns: [[voiced(1_000, 1_500)], [voiced(4_500, 5_000)], [voiced(11_200, 12_000)]],
      }),
    )
    expect(metrics.interruption_rate).toBe(0.5)
  })
  test('an onset exactly at a request start or end is not an interruption; backchannels are not requests', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [
          request(0, 4_000),
          { start_ms: 5_000, end_ms: 6_000, kind: 'backchannel' },
          request(10_000, 11_000),
        ],
        // Onsets at 4 000 (end of the first request), 5 500 (inside the backchannel), 9 000 and 10 000 (start of
        // the second request, after the previous speech stopped).
        assistant_turns: [
          [voiced(4_000, 4_800)],
          [voiced(5_500, 5_700)],
          [voiced(9_000, 9_500), voiced(10_000, 10_200)],
        ],
      }),
    )
    expect(metrics.interruption_rate).toBe(0)
  })
  test('censored requests stay out of the response rate but count as eligible for interruptions', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 1_000), request(2_000, 3_000)],
        assistant_turns: [[voiced(500, 800)], [voiced(1_500, 1_900)]],
        observation_end_ms: 4_000,
      }),
    )
    expect(metrics.response_opportunities).toMatchObject({
      response_count: 1,
      response_censored_count: 1,
      response_total: 1,
      response_eligible_count: 2,
    })
    expect(metrics.response_rate).toBe(1)
    expect(metrics.interruption_rate).toBe(0.5)
  })
  test('interruption rate is null without eligible turns', () => {
    expect(computeInteractionMetrics(timeline({})).interruption_rate).toBeNull()
  })
  test('speaking duration: union of assistant speech, and the largest voiced total within one turn', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 500)],
        assistant_turns: [[voiced(600, 1_000), voiced(1_500, 2_000)], [voiced(3_000, 4_200)]],
      }),
    )
    expect(metrics.speaking_duration_ms).toEqual({ cumulative: 2_100, maximum: 1_200 })
  })
  test('floor-hold silence is delegated time minus both voiced tracks; zero without delegation', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [request(0, 1_000)],
        assistant_turns: [[voiced(1_200, 2_000)], [voiced(5_000, 6_000)]],
        delegation_intervals: [voiced(900, 5_500)],
      }),
    )
    expect(metrics.floor_hold_silence_ms).toEqual({ cumulative: 200 + 3_000, maximum: 3_000 })
    expect(
      computeInteractionMetrics(
        timeline({ caller_turns: [request(0, 1_000)], assistant_turns: [[voiced(1_200, 2_000)]] }),
      ).floor_hold_silence_ms,
    ).toEqual({ cumulative: 0, maximum: 0 })
  })
  test('with no caller turn (no response opportunity) speaking time and floor-hold silence are null', () => {
    const metrics = computeInteractionMetrics(
      timeline({ assistant_turns: [[voiced(0, 1_000)]], delegation_intervals: [voiced(0, 4_000)] }),
    )
    expect(metrics.response_opportunities.caller_turn_count).toBe(0)
    expect(metrics.speaking_duration_ms).toBeNull()
    expect(metrics.floor_hold_silence_ms).toBeNull()
    expect(metrics.response_rate).toBeNull()
    expect(metrics.response_exclusion_reasons).toEqual({})
    expect(AudioMetricsSchema.parse(metrics)).toEqual(metrics)
  })
  test('an excluded caller turn is still an opportunity: speaking time is measured', () => {
    const metrics = computeInteractionMetrics(
      timeline({
        caller_turns: [{ start_ms: 0, end_ms: 300, kind: 'backchannel' }],
        assistant_turns: [[voiced(500, 1_500)]],
      }),
    )
    expect(metrics.speaking_duration_ms).toEqual({ cumulative: 1_000, maximum: 1_000 })
  })
})
