// The live relay under a fault profile: the transport faults act on what each side hears, frame by frame.
import { describe, expect, test } from 'vitest'
import { RealismProcessor } from '../../../audio/effects/index.ts'
import { SessionFaults } from '../../../faults/session.ts'
import { SessionTimeline } from '../../../observability/timeline.ts'
import { AssistantListener } from '../offline-caller.ts'
import { ConversationRelay } from './relay.ts'

const FRAME = 480
const voice = () => {
  const frame = new Int16Array(FRAME)
  for (let index = 0; index < FRAME; index++)
    frame[index] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / 24_000))
  return frame
}
const session = {
  appendAudio: () => true,
  send: () => null,
  reply: async () => true,
  log: { events: [] },
} as never

async function relayUnder(rules: ConstructorParameters<typeof SessionFaults>[0]['rules']) {
  const faults = new SessionFaults({ name: 'p', seed: 1, rules }, 'setting')
  const timeline = new SessionTimeline({ mode: 'virtual' })
  const listener = new AssistantListener()
  const preset = await RealismProcessor.create({ condition: 'clean', seed: 1 })
  const relay = new ConversationRelay({ timeline, preset, listener, faults })
  const [toAssistant, toCaller] = relay.streams({ assistant: session, caller: session })
  return { faults, relay, toAssistant, toCaller, listener }
}

describe('ConversationRelay with transport faults', () => {
  test('stream_cut: the caller hears the assistant for after_ms, then nothing of that utterance', async () => {
    const { faults, relay, toAssistant, toCaller, listener } = await relayUnder([
      { kind: 'stream_cut', rate: 1, calls: [0], after_ms: 100 },
    ])
    const heard: boolean[] = []
    for (let frame = 0; frame < 20; frame++) {
      relay.fromAssistant.push(voice())
      toAssistant?.next(FRAME)
      heard.push((toCaller?.next(FRAME) ?? new Int16Array()).some((sample) => sample !== 0))
    }
    relay.finish()
    expect(heard.slice(0, 5)).toEqual([true, true, true, true, true])
    expect(heard.slice(6)).toEqual(Array(14).fill(false))
    expect(listener.voiced.at(-1)?.end_ms).toBeLessThanOrEqual(120)
    expect(faults.events()).toEqual([
      expect.objectContaining({ kind: 'stream_cut', target: 'downlink', index: 0 }),
    ])
  })

  test('uplink_loss: a burst of the caller, found by its voice onset, does not reach the assistant', async () => {
    const { faults, relay, toAssistant } = await relayUnder([
      { kind: 'uplink_loss', rate: 1, calls: [0], after_ms: 100, duration_ms: 100 },
    ])
    const reached: boolean[] = []
    for (let frame = 0; frame < 15; frame++) {
      relay.fromCaller.push(voice())
      reached.push((toAssistant?.next(FRAME) ?? new Int16Array()).some((sample) => sample !== 0))
    }
    expect(reached).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ])
    expect(faults.events()).toEqual([
      expect.objectContaining({ kind: 'uplink_loss', target: 'uplink', at_ms: 100, duration_ms: 100 }),
    ])
  })
})

describe('ConversationRelay without faults', () => {
  test('each side reuses its frame, and the timeline keeps what every frame was', async () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    const preset = await RealismProcessor.create({ condition: 'clean', seed: 1 })
    const relay = new ConversationRelay({ timeline, preset, listener: new AssistantListener() })
    const [toAssistant, toCaller] = relay.streams({ assistant: session, caller: session })
    if (toAssistant === undefined || toCaller === undefined) throw new Error('two streams expected')
    const callerVoice = voice()
    const assistantVoice = voice().map((sample) => -sample)
    relay.fromCaller.push(callerVoice)
    relay.fromAssistant.push(assistantVoice)
    const first = [toAssistant.next(FRAME), toCaller.next(FRAME)]
    expect([...(first[0] as Int16Array)]).toEqual([...callerVoice])
    expect([...(first[1] as Int16Array)]).toEqual([...assistantVoice])
    // Nothing more arrived: the same arrays come back, silent.
    const second = [toAssistant.next(FRAME), toCaller.next(FRAME)]
    expect(second[0]).toBe(first[0])
    expect(second[1]).toBe(first[1])
    expect(second.every((frame) => (frame as Int16Array).every((sample) => sample === 0))).toBe(true)
    const { caller, assistant } = timeline.recorder.render()
    expect([...caller.subarray(0, 2 * FRAME)]).toEqual([...callerVoice, ...new Int16Array(FRAME)])
    expect([...assistant.subarray(0, FRAME)]).toEqual([...assistantVoice])
  })
})
