import { describe, expect, it } from 'vitest'
import { applyRealism } from './effects/realism.ts'
import { callerRequest, inChunks } from './signals.test-helpers.ts'
import { detectSpeech, type SpeechInterval } from './speech-activity.ts'
import { detectVoiceActivity, WebRtcVoiceActivityDetector } from './voice-activity.ts'

/** True when each interval of `found` matches the one of `expected` at the same index within `toleranceMs`. */
function matches(found: SpeechInterval[], expected: SpeechInterval[], toleranceMs: number): boolean {
  return (
    found.length === expected.length &&
    found.every(
      (interval, i) =>
        Math.abs(interval.startMs - (expected[i]?.startMs ?? 0)) <= toleranceMs &&
        Math.abs(interval.endMs - (expected[i]?.endMs ?? 0)) <= toleranceMs,
    )
  )
}

describe('WebRTC voice activity', () => {
  it('finds the two sentences of a clean recording where the energy detector does', async () => {
    const speech = await callerRequest()
    const energy = detectSpeech(speech)
    expect(energy).toHaveLength(2)
    expect(matches(await detectVoiceActivity(speech), energy, 150)).toBe(true)
  })

  it('keeps the sentences apart under noise at RMS 1200, where the energy rule hears speech throughout', async () => {
    const speech = await callerRequest()
    const reference = detectSpeech(speech)
    const noisy = (await applyRealism(speech, { condition: 'noisy', seed: 5 })).samples
    expect(detectSpeech(noisy)).toHaveLength(1)
    expect(matches(await detectVoiceActivity(noisy), reference, 150)).toBe(true)
  })

  it('keeps them apart through a phone line with noise', async () => {
    const speech = await callerRequest()
    const line = await applyRealism(speech, {
      condition: 'telephony',
      seed: 5,
      overrides: { noise_rms: 800 },
    })
    expect(matches(await detectVoiceActivity(line.samples), detectSpeech(speech), 150)).toBe(true)
  })

  it('hears nothing in digital silence and the same intervals whatever the chunk sizes', async () => {
    expect(await detectVoiceActivity(new Int16Array(24000 * 2))).toEqual([])
    const speech = await callerRequest()
    const whole = await detectVoiceActivity(speech)
    const detector = await WebRtcVoiceActivityDetector.create()
    inChunks(speech, [480, 1, 999], (chunk) => {
      detector.push(chunk)
      return chunk
    })
    expect(detector.finish()).toEqual(whole)
  })

  it('reports on the caller clock with originMs', async () => {
    const speech = await callerRequest()
    const plain = await detectVoiceActivity(speech)
    const shifted = await detectVoiceActivity(speech, { originMs: 1000 })
    expect(shifted).toEqual(
      plain.map(({ startMs, endMs }) => ({ startMs: startMs + 1000, endMs: endMs + 1000 })),
    )
  })
})
