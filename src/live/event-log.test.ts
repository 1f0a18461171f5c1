import { describe, expect, it } from 'vitest'
import { LiveEventLog } from './event-log.ts'
import type { ReceivedLiveEvent } from './events.ts'
import { describeMalformedServerEvent } from './events.ts'
import { usesTwoByteSamples } from './session.ts'

const received = (seq: number): ReceivedLiveEvent => ({
  seq,
  receivedAtMs: seq * 10,
  event: { type: 'session.output_audio.delta', delta: 'AAAA' },
})

describe('LiveEventLog', () => {
  it('iterators start at the first event, wait for more, and end after seal', async () => {
    const log = new LiveEventLog()
    log.append(received(0))
    const seen: number[] = []
    const reading = (async () => {
      for await (const item of log.iterate()) seen.push(item.seq)
    })()
    log.append(received(1))
    await Promise.resolve()
    log.append(received(2))
    log.seal()
    log.append(received(3)) // ignored: sealed
    await reading
    expect(seen).toEqual([0, 1, 2])
  })

  it('listeners get events synchronously until they unsubscribe', () => {
    const log = new LiveEventLog()
    const seen: number[] = []
    const stop = log.subscribe((item) => seen.push(item.seq))
    log.append(received(0))
    stop()
    log.append(received(1))
    expect(seen).toEqual([0])
  })
})

describe('server event shape checks', () => {
  it('accepts known events with the fields we rely on, and unknown event types', () => {
    expect(
      describeMalformedServerEvent({ type: 'session.started', event_id: 'e', session: { id: 'live_1' } }),
    ).toBe(null)
    expect(describeMalformedServerEvent({ type: 'some.future.event', anything: 1 })).toBe(null)
  })

  it('names the event type and the field that is wrong', () => {
    expect(
      describeMalformedServerEvent({ type: 'session.input_transcript.delta', delta: 'hi', start_ms: 0 }),
    ).toBe('session.input_transcript.delta: end_ms must be a finite number')
    expect(describeMalformedServerEvent({ type: 'session.closed', reason: 'expired', usage: {} })).toBe(
      'session.closed: usage.seconds must be a finite number',
    )
    expect(describeMalformedServerEvent({ type: 'response.event', event: {} })).toBe(
      'response.event: event.type must be a string',
    )
    expect(describeMalformedServerEvent([1])).toBe('event is not a JSON object')
    expect(describeMalformedServerEvent({ kind: 'x' })).toBe('event has no string "type"')
  })
})

describe('audio byte-count rule', () => {
  it('PCM16 (explicit or default) needs even byte counts; G.711 does not', () => {
    expect(usesTwoByteSamples({ model: 'gpt-live-1' })).toBe(true)
    expect(
      usesTwoByteSamples({ model: 'gpt-live-1', audio: { format: { type: 'audio/pcm', rate: 16000 } } }),
    ).toBe(true)
    expect(
      usesTwoByteSamples({ model: 'gpt-live-1', audio: { format: { type: 'audio/pcmu', rate: 8000 } } }),
    ).toBe(false)
    expect(
      usesTwoByteSamples({ model: 'gpt-live-1', audio: { format: { type: 'audio/pcma', rate: 8000 } } }),
    ).toBe(false)
  })
})
