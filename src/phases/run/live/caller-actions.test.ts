import { describe, expect, it } from 'vitest'
import { countActions, inferCallerActions } from './caller-actions.ts'

// The assistant talks 2–6 s and 9–14 s on this constructed timeline.
const assistant = [
  { startMs: 2_000, endMs: 6_000 },
  { startMs: 9_000, endMs: 14_000 },
]
const rules = { backchannels: ['Mm-hmm.', 'Sure thing.'], stopAllowed: false }

describe('inferCallerActions', () => {
  it('labels the first utterance OPENING, overlaps by what was said, the rest SPEAK', () => {
    const plan = inferCallerActions(
      [
        { text: 'Hi, a table for two please.', startMs: 0, endMs: 1_800 },
        { text: 'Mm-hmm.', startMs: 3_000, endMs: 3_400 },
        { text: 'sure thing', startMs: 4_000, endMs: 4_500 },
        { text: 'Wait, make it three.', startMs: 5_000, endMs: 6_500 },
        { text: 'Okay.', startMs: 10_000, endMs: 10_300 },
        { text: 'Great, thanks.', startMs: 14_050, endMs: 15_000 },
      ],
      assistant,
      rules,
    )
    expect(plan.map((utterance) => utterance.action)).toEqual([
      'OPENING',
      'BACKCHANNEL',
      'BACKCHANNEL',
      'INTERRUPT',
      'BACKCHANNEL',
      // 50 ms of overlap is relay slack, not a barge-in.
      'SPEAK',
    ])
    expect(countActions(plan)).toEqual({ OPENING: 1, BACKCHANNEL: 3, INTERRUPT: 1, SPEAK: 1 })
  })

  it('claims STOP only for a final farewell, and only when no observer ran and the outcome is verified', () => {
    const utterances = [
      { text: 'Book Rivera at seven.', startMs: 0, endMs: 1_500 },
      { text: 'Thanks, goodbye!', startMs: 16_000, endMs: 17_000 },
    ]
    expect(inferCallerActions(utterances, assistant, { ...rules, stopAllowed: true }).at(-1)?.action).toBe(
      'STOP',
    )
    expect(inferCallerActions(utterances, assistant, rules).at(-1)?.action).toBe('SPEAK')
    const notLast = [...utterances, { text: 'Oh, and parking?', startMs: 18_000, endMs: 19_000 }]
    expect(countActions(inferCallerActions(notLast, assistant, { ...rules, stopAllowed: true }))).toEqual({
      OPENING: 1,
      SPEAK: 2,
    })
  })

  it('gives nothing for a call without caller speech', () => {
    expect(inferCallerActions([], assistant, rules)).toEqual([])
    expect(countActions([])).toEqual({})
  })
})
