import { describe, expect, it } from 'vitest'
import { computeInteractionMetrics, type InteractionTimeline } from '../../metrics/interaction.ts'
import type { CallerTurn } from '../../metrics/response-opportunities.ts'
import { mergeCallerContinuations } from './caller-turns.ts'

const request = (start_ms: number, end_ms: number): CallerTurn => ({ start_ms, end_ms, kind: 'request' })
const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })

// The shape of the reference's published live RUN example: an assistant-first booking of four exchanges whose
// closing farewell was voiced as two segments with a pause, answered by "You're welcome! You too."
const assistantTurns = [
  [voiced(1_180, 3_320)],
  [voiced(9_800, 10_840)],
  [voiced(11_640, 14_780)],
  [voiced(20_920, 21_580)],
  [voiced(24_240, 28_360)],
  [voiced(28_980, 31_580)],
  [voiced(37_440, 38_400)],
]
const callerSegments = [
  request(4_840, 8_100),
  request(16_280, 19_120),
  request(33_300, 34_800),
  request(35_400, 36_400),
]
const exampleTimeline = (caller_turns: readonly CallerTurn[]): InteractionTimeline => ({
  caller_turns,
  assistant_turns: assistantTurns,
  delegation_intervals: [],
  observation_end_ms: 42_000,
})

describe('caller continuations on the RUN timeline', () => {
  it('the split farewell is one answered turn: 3 of 3, where per-segment counting gives the reference 75%', () => {
    const perSegment = computeInteractionMetrics(exampleTimeline(callerSegments))
    expect(perSegment.response_rate).toBe(0.75)
    expect(perSegment.response_opportunities).toMatchObject({ caller_turn_count: 4, no_response_count: 1 })

    const turns = mergeCallerContinuations(callerSegments, assistantTurns.flat())
    expect(turns).toEqual([request(4_840, 8_100), request(16_280, 19_120), request(33_300, 36_400)])
    const metrics = computeInteractionMetrics(exampleTimeline(turns))
    expect(metrics.response_rate).toBe(1)
    expect(metrics.response_opportunities).toMatchObject({
      caller_turn_count: 3,
      response_count: 3,
      no_response_count: 0,
    })
    // The latencies are the same three answers either way (1700, 1800 and 1040 ms).
    expect(metrics.response_latency_ms).toBe(1_513.333)
    expect(perSegment.response_latency_ms).toBe(1_513.333)
  })

  it('keeps turns apart when the assistant spoke between them or the silence outlasted the deadline', () => {
    const assistant = [voiced(2_000, 3_000)]
    expect(mergeCallerContinuations([request(0, 1_000), request(4_000, 5_000)], assistant)).toHaveLength(2)
    expect(mergeCallerContinuations([request(0, 1_000), request(6_001, 7_000)], [])).toHaveLength(2)
    expect(mergeCallerContinuations([request(0, 1_000), request(6_000, 7_000)], [])).toHaveLength(1)
    // An ignored request followed by a long silence is still a miss.
    const ignored = computeInteractionMetrics({
      caller_turns: mergeCallerContinuations(
        [request(0, 1_000), request(7_000, 8_000)],
        [voiced(8_500, 9_000)],
      ),
      assistant_turns: [[voiced(8_500, 9_000)]],
      delegation_intervals: [],
      observation_end_ms: 20_000,
    })
    expect(ignored.response_rate).toBe(0.5)
  })

  it('never merges backchannels, and a continued farewell stays a closing', () => {
    const backchannel: CallerTurn = { start_ms: 1_500, end_ms: 1_800, kind: 'backchannel' }
    expect(mergeCallerContinuations([request(0, 1_000), backchannel], [])).toHaveLength(2)
    const closing: CallerTurn = { start_ms: 1_500, end_ms: 2_000, kind: 'closing' }
    expect(mergeCallerContinuations([request(0, 1_000), closing], [])).toEqual([
      { start_ms: 0, end_ms: 2_000, kind: 'closing' },
    ])
  })
})
