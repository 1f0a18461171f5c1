import { describe, expect, it, vi } from 'vitest'
import { silence } from '../audio/pcm.ts'
import { syntheticSpeech } from '../audio/synthetic-voice.ts'
import { SessionTimeline } from './timeline.ts'

describe('session timeline', () => {
  it('virtual clock: now is the caller audio sent so far', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    expect(timeline.nowMs()).toBe(0)
    expect(timeline.callerAudioSent(silence(20))).toEqual({ startMs: 0, endMs: 20 })
    expect(timeline.callerAudioSent(silence(100))).toEqual({ startMs: 20, endMs: 120 })
    expect(timeline.nowMs()).toBe(120)
  })

  it('real-time clock: wall time since the first frame, 0 before it', () => {
    let wall = 1_000
    const timeline = new SessionTimeline({ mode: 'real_time', wallClock: () => wall })
    wall = 1_500
    expect(timeline.nowMs()).toBe(0)
    timeline.callerAudioSent(silence(20))
    wall = 1_750
    expect(timeline.nowMs()).toBe(250)
  })

  it('places assistant audio at arrival, back to back, and marks only voiced chunks as speech', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    const voice = syntheticSpeech('Hello there')
    const first = timeline.assistantAudioReceived(500, voice.subarray(0, 2_400))
    const second = timeline.assistantAudioReceived(500, voice.subarray(2_400, 4_800))
    expect(first).toEqual({ startMs: 500, endMs: 600, voiced: true })
    expect(second).toEqual({ startMs: 600, endMs: 700, voiced: true })
    expect(timeline.assistantAudioReceived(800, silence(100)).voiced).toBe(false)
  })

  it('measures speech intervals of both channels from the recorded audio', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    timeline.callerAudioSent(silence(200))
    timeline.callerAudioSent(syntheticSpeech('Book a table'))
    timeline.callerAudioSent(silence(1_000))
    timeline.assistantAudioReceived(2_000, syntheticSpeech('Done'))
    const speech = timeline.speechIntervals()
    expect(speech.caller).toHaveLength(1)
    expect(speech.caller[0]?.startMs).toBeGreaterThanOrEqual(200)
    expect(speech.assistant).toHaveLength(1)
    expect(speech.assistant[0]?.startMs).toBeGreaterThanOrEqual(2_000)
  })

  it('measures speech once per state of the audio and remeasures after new audio', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    timeline.callerAudioSent(syntheticSpeech('Book a table'))
    const render = vi.spyOn(timeline.recorder, 'render')
    const first = timeline.speechIntervals()
    const again = timeline.speechIntervals()
    expect(render).toHaveBeenCalledTimes(1)
    expect(again).toEqual(first)
    // Callers get copies: changing one never changes the cached measurement.
    if (first.caller[0] !== undefined) first.caller[0].startMs = -1
    expect(timeline.speechIntervals().caller[0]?.startMs).toBeGreaterThanOrEqual(0)

    timeline.assistantAudioReceived(5_000, syntheticSpeech('Done'))
    expect(timeline.speechIntervals().assistant).toHaveLength(1)
    timeline.callerAudioSent(silence(3_000))
    timeline.callerAudioSent(syntheticSpeech('Thanks'))
    expect(timeline.speechIntervals().caller).toHaveLength(2)
    expect(render).toHaveBeenCalledTimes(3)
  })

  it('joins transcript fragments into lines per role and splits on a gap or a role change', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    const add = (role: 'user' | 'assistant', text: string, start: number, end: number) =>
      timeline.transcript({ role, text, startMs: start, endMs: end, receivedAtMs: end })
    add('user', 'Book', 0, 200)
    add('user', ' a table', 200, 500)
    add('assistant', 'One', 900, 1_000)
    add('assistant', ' moment.', 1_000, 1_200)
    add('assistant', 'Booked.', 3_000, 3_500)
    expect(timeline.lines()).toEqual([
      { role: 'user', text: 'Book a table', startMs: 0, endMs: 500 },
      { role: 'assistant', text: 'One moment.', startMs: 900, endMs: 1_200 },
      { role: 'assistant', text: 'Booked.', startMs: 3_000, endMs: 3_500 },
    ])
  })

  it('keeps the first record of a repeated delegation and its first settlement', () => {
    const timeline = new SessionTimeline({ mode: 'virtual' })
    timeline.delegationCreated('del_1', 100)
    timeline.delegationCreated('del_1', 200)
    timeline.delegationSettled('del_1', 300)
    timeline.delegationSettled('del_1', 400)
    expect(timeline.delegations).toEqual([{ id: 'del_1', startMs: 100, settledMs: 300 }])
  })
})
