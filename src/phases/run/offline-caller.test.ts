import { describe, expect, it } from 'vitest'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { SimulationParametersSchema } from '../../scenarios/simulation.ts'
import {
  AssistantListener,
  callerTurnStart,
  DEFAULT_GOODBYE,
  DEFAULT_TURN_TAKING,
  planUtterance,
  ScriptedCallerVoice,
  scriptedCallerLines,
} from './offline-caller.ts'

const item = (id: string, action: string, response_hint = '') => ({
  id,
  action,
  response_hint,
  commitment: `commitment of ${id}`,
  trigger_condition: 'when',
  completion_condition: 'done',
})

describe('scripted caller lines', () => {
  it('opens, says each hint (or a line of its own, never the commitment), skips waits and ends with its goodbye', () => {
    const parameters = SimulationParametersSchema.parse({
      known_facts: { a: 1 },
      agenda: [
        item('a', 'answer', 'Under Okafor.'),
        item('w', 'wait', 'HIDDEN'),
        item('b', 'interrupt'),
        item('f', 'finish', 'Bye now.'),
        item('c', 'correct', 'Make it four.'),
      ],
    })
    expect(scriptedCallerLines(parameters, 'Hello.')).toEqual([
      { text: 'Hello.', action: 'OPENING' },
      { text: 'Under Okafor.', action: 'SPEAK' },
      { text: 'Sorry to cut in.', action: 'INTERRUPT' },
      { text: 'Make it four.', action: 'SPEAK' },
      { text: 'Bye now.', action: 'STOP' },
    ])
    const noGoodbye = SimulationParametersSchema.parse({ agenda: [item('a', 'answer', 'x')] })
    expect(scriptedCallerLines(noGoodbye, 'Hi').at(-1)).toEqual({ text: DEFAULT_GOODBYE, action: 'STOP' })
  })
})

describe('scripted caller voice', () => {
  it('places each utterance’s synthetic speech exactly at its planned start, silence elsewhere', () => {
    const plan = [planUtterance({ text: 'Hello there.', action: 'OPENING' }, 150)]
    const voice = new ScriptedCallerVoice(plan)
    const stepSamples = SAMPLE_RATE_HZ / 10
    const chunks: Int16Array[] = []
    for (let step = 0; step < 20; step++) chunks.push(voice.next(stepSamples))
    const all = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
    let offset = 0
    for (const chunk of chunks) {
      all.set(chunk, offset)
      offset += chunk.length
    }
    const start = (150 * SAMPLE_RATE_HZ) / 1000
    const speech = syntheticSpeech('Hello there.')
    expect(all.subarray(0, start).every((sample) => sample === 0)).toBe(true)
    expect(all.subarray(start, start + speech.length)).toEqual(speech)
    expect(all.subarray(start + speech.length).every((sample) => sample === 0)).toBe(true)
    expect(plan[0]?.endMs).toBe(150 + (speech.length * 1000) / SAMPLE_RATE_HZ)
  })
})

describe('turn taking', () => {
  const loud = (ms: number) => new Int16Array((ms * SAMPLE_RATE_HZ) / 1000).fill(2_000)
  const quiet = (ms: number) => new Int16Array((ms * SAMPLE_RATE_HZ) / 1000)
  function heard(pattern: [number, boolean][]): AssistantListener {
    const listener = new AssistantListener()
    let at = 0
    for (const [ms, voiced] of pattern) {
      listener.hear(at, voiced ? loud(ms) : quiet(ms))
      at += ms
    }
    return listener
  }
  const speak = { text: 'ok', action: 'SPEAK' as const }
  it('waits for the reply to finish, then leaves its gap', () => {
    const listener = heard([
      [1_000, false],
      [2_000, true],
      [500, false],
    ])
    expect(callerTurnStart(speak, 500, 3_500, listener, false)).toBeNull()
    const done = 3_000 + DEFAULT_TURN_TAKING.replyQuietMs
    expect(callerTurnStart(speak, 500, done, listener, false)).toBe(done + DEFAULT_TURN_TAKING.callerGapMs)
  })
  it('keeps waiting while delegated work is pending, and speaks anyway after a silent wait', () => {
    const listener = heard([[1_000, true]])
    expect(callerTurnStart(speak, 0, 10_000, listener, true)).toBeNull()
    expect(callerTurnStart(speak, 2_000, 2_000 + DEFAULT_TURN_TAKING.noReplyWaitMs, listener, false)).toBe(
      8_000,
    )
  })
  it('an interrupting caller barges in once the assistant has talked long enough, not into a short ack', () => {
    const barge = { text: 'wait', action: 'INTERRUPT' as const }
    const ack = heard([
      [500, true],
      [1_000, false],
    ])
    expect(callerTurnStart(barge, 0, 1_500, ack, true)).toBeNull()
    // An assistant that never talks that long is answered as an ordinary turn once it finished.
    expect(callerTurnStart(barge, 0, 1_500, ack, false)).toBe(500 + 800 + 400)
    expect(callerTurnStart(barge, 0, 1_200, heard([[1_200, true]]), false)).toBe(1_200)
  })
})
