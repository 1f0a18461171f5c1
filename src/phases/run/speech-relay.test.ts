// Buffered speech, not buffered audio: a relay holding only silence lets a drain end the call, one holding an unheard
// voiced frame does not (§6). The live relay's two directions answer the same way.
import { describe, expect, it } from 'vitest'
import { SAMPLES_PER_FRAME } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { SessionTimeline } from '../../observability/timeline.ts'
import { ConversationRelay } from './live/relay.ts'
import { AssistantListener } from './offline-caller.ts'
import { SpeechRelay } from './speech-relay.ts'

const silence = (frames: number) => new Int16Array(frames * SAMPLES_PER_FRAME)
const speech = () => syntheticSpeech('Your reservation is confirmed.').subarray(0, 4 * SAMPLES_PER_FRAME)

describe('speech relay', () => {
  it('holding silence is no buffered speech; holding voice is, until every voiced frame was taken', () => {
    const relay = new SpeechRelay()
    relay.push(silence(5))
    expect(relay.bufferedSamples).toBe(5 * SAMPLES_PER_FRAME)
    expect(relay.bufferedSpeech).toBe(false)
    relay.push(speech())
    expect(relay.bufferedSpeech).toBe(true)
    relay.take(5 * SAMPLES_PER_FRAME)
    expect(relay.bufferedSpeech).toBe(true)
    // Part of the last voiced frame is still there.
    relay.take(4 * SAMPLES_PER_FRAME - 10)
    expect(relay.bufferedSpeech).toBe(true)
    relay.take(10)
    expect(relay.bufferedSpeech).toBe(false)
    expect(relay.bufferedSamples).toBe(0)
  })

  it('gives the audio back unchanged, padded with silence as the plain relay does', () => {
    const relay = new SpeechRelay()
    const voice = speech()
    relay.push(voice)
    const taken = relay.take(voice.length + 100)
    expect([...taken.subarray(0, voice.length)]).toEqual([...voice])
    expect(taken.subarray(voice.length).every((sample) => sample === 0)).toBe(true)
  })

  it('the live relay counts only speech in either direction as buffered', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    const preset = { process: (samples: Int16Array) => samples } as never
    const relay = new ConversationRelay({ timeline, preset, listener: new AssistantListener() })
    relay.fromAssistant.push(silence(10))
    relay.fromCaller.push(silence(10))
    expect(relay.bufferedSpeech).toBe(false)
    relay.fromAssistant.push(speech())
    expect(relay.bufferedSpeech).toBe(true)
  })
})
