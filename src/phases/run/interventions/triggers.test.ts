import { describe, expect, it } from 'vitest'
import { planIntervention, planUtterance } from '../offline-caller.ts'
import { InterventionAgenda } from './agenda.ts'
import { type Intervention, InterventionSchema } from './schema.ts'
import { triggerCueMs, whileSpeakingCueMs } from './triggers.ts'

const stretch = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })
const speaking = (ms: number, occurrence = 1, after_caller_line: number | null = null) => ({
  type: 'while_assistant_speaking' as const,
  ms,
  occurrence,
  after_caller_line,
})
const STEP = 100

describe('while the assistant is speaking', () => {
  const heard = [stretch(1_000, 1_800), stretch(2_000, 5_000), stretch(6_000, 9_000)]
  it('fires at the first step once the first long-enough stretch has lasted that long', () => {
    expect(whileSpeakingCueMs(speaking(1_500), heard, 0, 3_400, STEP)).toBeNull()
    expect(whileSpeakingCueMs(speaking(1_500), heard, 0, 3_500, STEP)).toBe(3_500)
    // Known later, the cue is still when it held.
    expect(whileSpeakingCueMs(speaking(1_500), heard, 0, 20_000, STEP)).toBe(3_500)
    // Rounded up to the media clock's step.
    expect(whileSpeakingCueMs(speaking(1_450), heard, 0, 20_000, STEP)).toBe(3_500)
  })
  it('counts occurrences of stretches that reached the duration, not every stretch', () => {
    expect(whileSpeakingCueMs(speaking(700, 1), heard, 0, 20_000, STEP)).toBe(1_700)
    expect(whileSpeakingCueMs(speaking(700, 3), heard, 0, 20_000, STEP)).toBe(6_700)
    expect(whileSpeakingCueMs(speaking(1_500, 2), heard, 0, 20_000, STEP)).toBe(7_500)
    expect(whileSpeakingCueMs(speaking(1_500, 3), heard, 0, 20_000, STEP)).toBeNull()
  })
  it('after a caller line, counts only stretches that start after it ended', () => {
    expect(whileSpeakingCueMs(speaking(1_500), heard, 2_100, 20_000, STEP)).toBe(7_500)
    const view = { scriptedLineEndsMs: [900, 5_500] }
    expect(triggerCueMs(speaking(1_500, 1, 1), heard, view, 20_000, STEP)).toBe(7_500)
    // The line has not been said yet: the condition is not armed.
    expect(triggerCueMs(speaking(1_500, 1, 2), heard, view, 20_000, STEP)).toBeNull()
  })
  it('a media-clock trigger is its time on the step', () => {
    expect(triggerCueMs({ type: 'at', at_ms: 4_250 }, [], { scriptedLineEndsMs: [] }, 0, STEP)).toBe(4_300)
  })
})

describe('pending interventions', () => {
  const at = (id: string, at_ms: number): Intervention =>
    InterventionSchema.parse({ id, kind: 'barge_in', text: `${id} words`, trigger: { at_ms } })
  const opening = planUtterance({ text: 'Hello, a table please.', action: 'OPENING' }, 200)

  it('the earliest cue goes first, ties in the schedule’s order; a cue in the future waits', () => {
    const agenda = new InterventionAgenda([at('b', 6_000), at('a', 5_000), at('c', 5_000)], STEP)
    const plan = [opening]
    expect(agenda.due([], plan, 4_900)).toBeNull()
    expect(agenda.due([], plan, 5_000)).toMatchObject({ intervention: { id: 'a' }, cueMs: 5_000 })
    agenda.said('a')
    expect(agenda.due([], plan, 6_000)).toMatchObject({ intervention: { id: 'c' }, cueMs: 5_000 })
  })

  it('gives up a cue that came before the opening or while the caller talked, and what the plan never reached', () => {
    const early = at('early', 100)
    const during = at('during', 1_000)
    const after = at('after', 40_000)
    const agenda = new InterventionAgenda([early, during, after], STEP)
    const barge = planIntervention({ id: 'x', kind: 'barge_in', text: 'One more thing.' }, 2_500)
    const plan = [opening, barge]
    // Nothing is due while the caller is still saying something.
    expect(agenda.due([], plan, barge.endMs - 1)).toBeNull()
    expect(agenda.unsaid.size).toBe(0)
    expect(agenda.due([], plan, Math.ceil(barge.endMs / STEP) * STEP)).toBeNull()
    expect([...agenda.unsaid]).toEqual([
      ['early', 'before_opening'],
      ['during', 'caller_speaking'],
    ])
    agenda.endPlan()
    expect(agenda.unsaid.get('after')).toBe('call_ended')
    expect(agenda.hasPending).toBe(false)
  })

  it('a condition that held while the caller was talking is given up, not said late', () => {
    const cut = InterventionSchema.parse({
      id: 'cut',
      kind: 'barge_in',
      text: 'Hold on.',
      trigger: { while_assistant_speaking_ms: 500 },
    })
    const agenda = new InterventionAgenda([cut], STEP)
    const plan = [opening]
    // The assistant talked over the opening for 500 ms before it ended.
    const heard = [stretch(1_000, opening.endMs + 400)]
    expect(agenda.due(heard, plan, Math.ceil(opening.endMs / STEP) * STEP)).toBeNull()
    expect(agenda.unsaid.get('cut')).toBe('caller_speaking')
  })
})
