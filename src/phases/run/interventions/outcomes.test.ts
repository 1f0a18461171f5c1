// Intervention outcomes on constructed timelines with known answers, and how they fold into run_turns.
import { describe, expect, it } from 'vitest'
import { RunTurnMetricsSchema } from '../../../reporting/extensions/run-turns.ts'
import { planIntervention, planUtterance } from '../offline-caller.ts'
import { bargeInYields, summarizeTurnMetrics } from '../turn-metrics.ts'
import { interventionOutcomes, measuredOutcome, unsaidOutcome } from './outcomes.ts'
import { InterventionSchema } from './schema.ts'

const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })
const bargeIn = { id: 'cut', kind: 'barge_in' as const }
const ack = { id: 'ack', kind: 'backchannel' as const }

describe('a scheduled intervention’s outcome', () => {
  it('exercised and yielded: the time from the cue to the end of the assistant’s voice', () => {
    expect(measuredOutcome(bargeIn, 8_200, 9_600, [voiced(6_700, 8_450), voiced(10_000, 11_000)])).toEqual({
      id: 'cut',
      kind: 'barge_in',
      cue_ms: 8_200,
      end_ms: 9_600,
      exercised: true,
      yielded: true,
      yield_latency_ms: 250,
      unexercised_reason: null,
    })
  })

  it('exercised and not yielded: the assistant talked on past the yield window', () => {
    expect(measuredOutcome(bargeIn, 8_200, 9_600, [voiced(6_700, 12_000)])).toMatchObject({
      exercised: true,
      yielded: false,
      yield_latency_ms: null,
      unexercised_reason: null,
    })
  })

  it('unexercised: under 300 ms of assistant voice in the second before the cue, so never a pass', () => {
    // 250 ms of voice in [7 200, 8 200): nothing to yield.
    const outcome = measuredOutcome(bargeIn, 8_200, 9_600, [voiced(5_000, 7_450), voiced(8_300, 9_000)])
    expect(outcome).toMatchObject({
      exercised: false,
      yielded: null,
      yield_latency_ms: null,
      unexercised_reason: 'assistant_silent',
    })
    // Exactly 300 ms is enough.
    expect(measuredOutcome(bargeIn, 8_200, 9_600, [voiced(7_900, 8_200)]).exercised).toBe(true)
  })

  it('a backchannel asks nothing of the assistant: only whether it overlapped its speech', () => {
    expect(measuredOutcome(ack, 8_200, 8_650, [voiced(6_700, 8_300)])).toMatchObject({
      kind: 'backchannel',
      exercised: true,
      yielded: null,
      yield_latency_ms: null,
    })
    expect(measuredOutcome(ack, 8_200, 8_650, []).unexercised_reason).toBe('assistant_silent')
  })

  it('every scheduled one has an outcome in the schedule’s order; unsaid ones say why, with no times', () => {
    const schedule = [
      { id: 'late', kind: 'barge_in', text: 'Hello?', trigger: { at_ms: 80_000 } },
      { id: 'cut', kind: 'barge_in', text: 'Hold on.', trigger: { while_assistant_speaking_ms: 1_500 } },
      { id: 'gone', kind: 'barge_in', text: 'Wait.', trigger: { at_ms: 100 } },
      { id: 'cut-off', kind: 'barge_in', text: 'Hm.', trigger: { at_ms: 30_000 } },
    ].map((item) => InterventionSchema.parse(item))
    const plan = [
      planUtterance({ text: 'Hi.', action: 'OPENING' }, 200),
      planIntervention({ id: 'cut', kind: 'barge_in', text: 'Hold on.' }, 8_200),
      planIntervention({ id: 'cut-off', kind: 'barge_in', text: 'Hm.' }, 30_000),
    ]
    const outcomes = interventionOutcomes(
      schedule,
      plan,
      new Map([
        ['late', 'call_ended'],
        ['gone', 'before_opening'],
      ]),
      [voiced(6_700, 8_300)],
      25_000,
    )
    expect(outcomes.map((outcome) => [outcome.id, outcome.exercised, outcome.unexercised_reason])).toEqual([
      ['late', false, 'call_ended'],
      ['cut', true, null],
      ['gone', false, 'before_opening'],
      ['cut-off', false, 'call_ended'],
    ])
    expect(outcomes[0]).toEqual(unsaidOutcome({ id: 'late', kind: 'barge_in' }, 'call_ended'))
    expect(outcomes[0]?.cue_ms).toBeNull()
  })
})

describe('folding scheduled interventions into run_turns', () => {
  const assistant = [voiced(3_000, 5_600), voiced(6_700, 12_000), voiced(19_000, 20_500)]

  it('a scheduled barge-in found again in the audio is counted once; other found cues still count', () => {
    const scheduled = [
      measuredOutcome(bargeIn, 8_200, 9_600, assistant), // exercised, not yielded
      unsaidOutcome({ id: 'never', kind: 'barge_in' }, 'call_ended'),
      measuredOutcome(ack, 3_600, 4_000, assistant), // a backchannel is never a barge-in
    ]
    // After the fact, the audio shows caller onsets at 5 000 (not scheduled), 8 210 (the scheduled barge-in,
    // its onset a frame late) and 3 590 (the backchannel, a frame early).
    const yields = bargeInYields([5_000, 8_210, 3_590], scheduled, assistant)
    expect(yields).toEqual([
      { cue_ms: 5_000, exercised: true, yielded: true, yield_latency_ms: 600 },
      { cue_ms: 8_200, exercised: true, yielded: false, yield_latency_ms: null },
      { cue_ms: null, exercised: false, yielded: null, yield_latency_ms: null },
    ])
    const metrics = summarizeTurnMetrics(yields, [])
    expect(RunTurnMetricsSchema.parse(metrics)).toMatchObject({
      yield_rate: 0.5,
      yield_latency_ms: 600,
      barge_ins: { exercised: 2, unexercised: 1 },
    })
  })

  it('with nothing scheduled it is the after-the-fact rule alone', () => {
    expect(bargeInYields([8_000], [], assistant)).toEqual([
      { cue_ms: 8_000, exercised: true, yielded: false, yield_latency_ms: null },
    ])
  })
})
