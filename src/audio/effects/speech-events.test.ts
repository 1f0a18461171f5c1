import { describe, expect, it } from 'vitest'
import { inChunks, rms, sameBytes } from '../signals.test-helpers.ts'
import { detectSpeech } from '../speech-activity.ts'
import {
  coughSound,
  NON_DIRECTED_MS,
  nonDirectedSpeechSound,
  PeriodicSound,
  VOCAL_TIC_MS,
} from './speech-events.ts'

function mixed(sound: Int16Array, periodMs: number, ms: number, sizes?: number[]) {
  const events = new PeriodicSound(sound, periodMs)
  let position = 0
  const samples = inChunks(new Int16Array(ms * 24), sizes ?? [ms * 24], (chunk) => {
    const copy = chunk.slice()
    events.process(copy, position)
    position += chunk.length
    return copy
  })
  return { samples, events: events.events }
}

describe('coughs and non-directed speech', () => {
  it('have the reference lengths: an 80 ms cough, 160 ms of speech', () => {
    expect(coughSound().length).toBe(VOCAL_TIC_MS * 24)
    expect(nonDirectedSpeechSound().length).toBe(NON_DIRECTED_MS * 24)
  })

  it('start at every whole period of the stream clock (first at one period) and are counted', () => {
    const { samples, events } = mixed(coughSound(), 3200, 10_000)
    expect(events).toBe(3)
    for (const startMs of [3200, 6400, 9600]) {
      expect(rms(samples, startMs * 24, (startMs + 80) * 24)).toBeGreaterThan(500)
      expect(rms(samples, (startMs - 100) * 24, startMs * 24)).toBe(0)
    }
  })

  it('place events the same way whatever the chunk sizes, including events that straddle chunks', () => {
    const whole = mixed(nonDirectedSpeechSound(), 4600, 14_000)
    const framed = mixed(nonDirectedSpeechSound(), 4600, 14_000, [480])
    const odd = mixed(nonDirectedSpeechSound(), 4600, 14_000, [7, 3001, 160])
    expect(sameBytes(whole.samples, framed.samples) && sameBytes(whole.samples, odd.samples)).toBe(true)
    expect([whole.events, framed.events, odd.events]).toEqual([3, 3, 3])
  })

  it('sum overlapping events when the period is shorter than the sound', () => {
    const { samples, events } = mixed(Int16Array.of(100, 100, 100), 1 / 24, 1) // one sample apart
    expect(events).toBe(23)
    expect([...samples.subarray(0, 5)]).toEqual([0, 100, 200, 300, 300])
  })

  it('non-directed speech is voiced enough that an energy detector would take it for speech', () => {
    expect(detectSpeech(nonDirectedSpeechSound())).toHaveLength(1)
  })
})
