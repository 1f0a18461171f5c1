// Two GPT-Live sessions on one media clock, virtual: the first hears a spoken question, the second hears the
// first one's answer relayed one step later (as RUN relays assistant and caller). The same input gives the same
// event sequence and the same relayed bytes on fresh servers.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { responsesDelegation } from '../../assistants/architectures/index.ts'
import { openOffline, visibleRequest } from '../../assistants/assistant-session.fixtures.ts'
import { concatPcm16, pcm16FromBase64, SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { AudioRelay, type ClockedStream, MediaClock } from './media-clock.ts'

const STEP_MS = 200
const STEP_SAMPLES = (SAMPLE_RATE_HZ * STEP_MS) / 1000

/** A stream that plays `audio` once, then silence. */
function playOnce(audio: Int16Array): (samples: number) => Int16Array {
  let position = 0
  return (samples) => {
    const chunk = new Int16Array(samples)
    chunk.set(audio.subarray(position, position + samples))
    position += samples
    return chunk
  }
}

async function relayedConversation() {
  const server = await startOfflineLiveServer()
  try {
    const first = await openOffline(server, visibleRequest('What are your hours?'), responsesDelegation())
    const second = await openOffline(
      server,
      visibleRequest('Hello?', { scenarioId: 'listener' }),
      responsesDelegation(),
    )
    const clock = new MediaClock({ mode: 'virtual', stepMs: STEP_MS })
    const relay = new AudioRelay()
    const spoken: Int16Array[] = []
    let firstAudioStep: number | null = null
    let lastAudioStep = 0
    // Each session's events, stamped with the media clock's step (the sessions' own clocks are wall clocks).
    const events: string[][] = [[], []]
    for (const [index, { assistant }] of [first, second].entries()) {
      assistant.session.subscribe(({ event }) => {
        events[index]?.push(`${event.type}@${clock.nowMs}`)
      })
    }
    first.assistant.session.subscribe(({ event }) => {
      if (event.type !== 'session.output_audio.delta') return
      const samples = pcm16FromBase64(event.delta)
      firstAudioStep ??= clock.nowMs / STEP_MS
      lastAudioStep = clock.nowMs / STEP_MS
      spoken.push(samples)
      relay.push(samples)
    })
    const heard: Int16Array[] = []
    const question = playOnce(first.speech)
    const streams: ClockedStream[] = [
      { label: 'assistant', session: first.assistant.session, next: question },
      {
        label: 'caller',
        session: second.assistant.session,
        next: (samples) => {
          const chunk = relay.take(samples)
          heard.push(chunk)
          return chunk
        },
      },
    ]
    // Until the answer was spoken, a second of quiet followed, and everything said was relayed (bounded).
    for (let step = 0; step < 200; step++) {
      await clock.step(streams)
      const quiet = firstAudioStep !== null && step > lastAudioStep + 5
      if (quiet && relay.bufferedSamples === 0) break
    }
    await Promise.all([first.assistant.close(), second.assistant.close()])
    return {
      spoken: concatPcm16(spoken),
      heard: concatPcm16(heard),
      firstAudioStep,
      events,
      steps: clock.nowMs / STEP_MS,
    }
  } finally {
    await server.close()
  }
}

const digest = (samples: Int16Array) => createHash('sha256').update(samples).digest('hex')

describe('two sessions relayed on one media clock (virtual)', () => {
  it('relays every sample of one session’s voice into the other, one step later', async () => {
    const run = await relayedConversation()
    expect(run.spoken.length).toBeGreaterThan(0)
    expect(run.firstAudioStep).not.toBeNull()
    // The listener heard silence until the step after the first audio arrived...
    const offset = ((run.firstAudioStep ?? 0) + 1) * STEP_SAMPLES
    expect(run.heard.subarray(0, offset).every((sample) => sample === 0)).toBe(true)
    // ...then every sample that was said, in order, with silence only where the speaker paused between deltas.
    const voiced = (samples: Int16Array) => samples.filter((sample) => sample !== 0)
    expect(voiced(run.heard)).toEqual(voiced(run.spoken))
    // Both sessions heard the same amount of audio: one clock.
    expect(run.heard.length).toBe(run.steps * STEP_SAMPLES)
  })

  it('is deterministic: the same input gives the same events and relayed bytes on fresh servers', async () => {
    const [a, b] = [await relayedConversation(), await relayedConversation()]
    expect(a.events).toEqual(b.events)
    expect(digest(a.heard)).toBe(digest(b.heard))
    expect(a.events[1]?.length).toBeGreaterThan(1)
  })
})

describe('the audio relay queue', () => {
  it('hands out every sample in order across pieces of any size, then silence, however many pieces wait', () => {
    const relay = new AudioRelay()
    // 700 pieces of 7 samples (more than the queue's compaction point), numbered 1..4900.
    let next = 1
    for (let piece = 0; piece < 700; piece++) {
      relay.push(Int16Array.from({ length: 7 }, () => next++))
    }
    const heard: number[] = []
    while (relay.bufferedSamples > 0) heard.push(...relay.take(480))
    expect(heard.slice(0, 4900)).toEqual(Array.from({ length: 4900 }, (_, index) => index + 1))
    expect(heard.slice(4900).every((sample) => sample === 0)).toBe(true)
    relay.push(Int16Array.of(5, 6))
    expect([...relay.take(3)]).toEqual([5, 6, 0])
    expect(relay.bufferedSamples).toBe(0)
  })

  it('fills a frame handed in (all of it: what is missing is silence, not the last frame), or a fresh one', () => {
    const relay = new AudioRelay()
    const frame = new Int16Array(4)
    relay.push(Int16Array.of(1, 2, 3, 4, 5, 6))
    expect(relay.take(4, frame)).toBe(frame)
    expect([...frame]).toEqual([1, 2, 3, 4])
    expect(relay.take(4, frame)).toBe(frame)
    expect([...frame]).toEqual([5, 6, 0, 0])
    // A frame of another length is not used.
    relay.push(Int16Array.of(7))
    const fresh = relay.take(2, frame)
    expect(fresh).not.toBe(frame)
    expect([...fresh]).toEqual([7, 0])
    expect([...frame]).toEqual([5, 6, 0, 0])
  })
})
