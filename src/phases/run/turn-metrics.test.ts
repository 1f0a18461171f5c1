import { describe, expect, it } from 'vitest'
import type { CallerTurn } from '../../metrics/response-opportunities.ts'
import { summarizeTurnMetrics, verifiedAnswers, yieldOutcomes } from './turn-metrics.ts'

const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })
const request = (start_ms: number, end_ms: number): CallerTurn => ({ start_ms, end_ms, kind: 'request' })

describe('barge-in yield', () => {
  it('an exercised barge-in yields with the time the assistant took to stop', () => {
    const [outcome] = yieldOutcomes([5_000], [voiced(3_000, 5_600)])
    expect(outcome).toEqual({ cue_ms: 5_000, exercised: true, yielded: true, yield_latency_ms: 600 })
  })
  it('a cue while the assistant was quiet is unexercised, not a pass', () => {
    // 200 ms of voice in the second before the cue is below the 300 ms needed.
    const [outcome] = yieldOutcomes([5_000], [voiced(4_000, 4_200)])
    expect(outcome).toMatchObject({ exercised: false, yielded: null })
    const metrics = summarizeTurnMetrics([outcome as NonNullable<typeof outcome>], [])
    expect(metrics.yield_rate).toBeNull()
    expect(metrics.barge_ins).toEqual({ exercised: 0, unexercised: 1 })
  })
  it('an assistant that talks on past the window did not yield', () => {
    const outcomes = yieldOutcomes([5_000, 20_000], [voiced(4_000, 9_000), voiced(19_000, 20_500)])
    expect(outcomes.map((outcome) => outcome.yielded)).toEqual([false, true])
    expect(summarizeTurnMetrics(outcomes, [])).toMatchObject({ yield_rate: 0.5, yield_latency_ms: 500 })
  })
})

describe('time to verified answer', () => {
  it('measures a tool turn to the first speech after its result, not to the acknowledgement', () => {
    const answers = verifiedAnswers(
      [request(0, 2_000), request(10_000, 11_000)],
      [voiced(2_300, 2_900), voiced(4_500, 7_000), voiced(11_400, 12_000)],
      { delegation_starts_ms: [2_100], tool_results_ms: [4_200] },
      20_000,
    )
    expect(answers).toEqual([
      { request_end_ms: 2_000, tool_turn: true, time_to_verified_answer_ms: 2_500 },
      { request_end_ms: 11_000, tool_turn: false, time_to_verified_answer_ms: 400 },
    ])
    expect(summarizeTurnMetrics([], answers).time_to_verified_answer_ms).toEqual({
      tool_turns: { count: 1, mean_ms: 2_500 },
      non_tool_turns: { count: 1, mean_ms: 400 },
    })
  })
  it('a delegation with no result before the next request has no verified answer (null, not 0)', () => {
    const answers = verifiedAnswers(
      [request(0, 1_000), request(8_000, 9_000)],
      [voiced(1_200, 2_000)],
      { delegation_starts_ms: [1_100], tool_results_ms: [] },
      12_000,
    )
    expect(answers[0]).toEqual({ request_end_ms: 1_000, tool_turn: true, time_to_verified_answer_ms: null })
    expect(summarizeTurnMetrics([], answers).time_to_verified_answer_ms.tool_turns).toEqual({
      count: 1,
      mean_ms: null,
    })
  })
  it('closings and backchannels are not requests', () => {
    const turns: CallerTurn[] = [
      { start_ms: 0, end_ms: 500, kind: 'backchannel' },
      { start_ms: 1_000, end_ms: 2_000, kind: 'closing' },
    ]
    expect(
      verifiedAnswers(
        turns,
        [voiced(2_100, 3_000)],
        { delegation_starts_ms: [], tool_results_ms: [] },
        5_000,
      ),
    ).toEqual([])
  })
})
