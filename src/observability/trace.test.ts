import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonPlain, SessionTrace, withoutRawAudio } from './trace.ts'

const AUDIO = Buffer.alloc(960, 7).toString('base64')

describe('sanitized session trace', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('numbers records from 1 in the order they were added', () => {
    const trace = new SessionTrace()
    trace.add('client', 'sent', 0, { type: 'session.start', session: { model: 'gpt-live-1' } })
    trace.add('server', 'received', 5, { type: 'session.started', session: { id: 's1' } })
    trace.addEvaluation('evaluation.outcome.assessed', 9, { passed: true })
    expect(trace.records.map((record) => record.event_index)).toEqual([1, 2, 3])
    expect(trace.records.map((record) => [record.source, record.direction, record.type])).toEqual([
      ['client', 'sent', 'session.start'],
      ['server', 'received', 'session.started'],
      ['evaluator', 'internal', 'evaluation.outcome.assessed'],
    ])
    expect(trace.records[0]?.event.session).toEqual({ model: 'gpt-live-1' })
  })

  it('replaces input and output audio by their byte counts but keeps transcript text', () => {
    expect(withoutRawAudio({ type: 'session.input_audio.append', audio: AUDIO })).toEqual({
      type: 'session.input_audio.append',
      audio_bytes: 960,
    })
    expect(withoutRawAudio({ type: 'session.output_audio.delta', delta: AUDIO, event_id: 'e' })).toEqual({
      type: 'session.output_audio.delta',
      event_id: 'e',
      delta_bytes: 960,
    })
    const caption = { type: 'session.output_transcript.delta', delta: 'Hello', start_ms: 0, end_ms: 10 }
    expect(withoutRawAudio(caption)).toEqual(caption)
    const trace = new SessionTrace()
    trace.add('server', 'received', 1, { type: 'session.output_audio.delta', delta: AUDIO })
    expect(trace.toJsonl()).not.toContain(AUDIO)
  })

  it('drops the audio before copying the event, so base64 audio is never serialized', () => {
    const stringify = vi.spyOn(JSON, 'stringify')
    const trace = new SessionTrace()
    trace.add('server', 'received', 1, { type: 'session.output_audio.delta', delta: AUDIO })
    trace.add('client', 'sent', 2, { type: 'session.input_audio.append', audio: AUDIO })
    // A nested field sends this one through the JSON round trip (jsonPlain's slow path).
    trace.add('server', 'received', 3, { type: 'session.output_audio.delta', delta: AUDIO, extra: { n: 1 } })
    const serialized = stringify.mock.results.map((result) => String(result.value))
    expect(serialized.length).toBeGreaterThan(0)
    for (const text of serialized) expect(text).not.toContain(AUDIO)
    expect(trace.records.map((record) => record.event)).toEqual([
      { type: 'session.output_audio.delta', delta_bytes: 960 },
      { type: 'session.input_audio.append', audio_bytes: 960 },
      { type: 'session.output_audio.delta', extra: { n: 1 }, delta_bytes: 960 },
    ])
  })

  it('jsonPlain gives what a JSON round trip gives, and skips it only for flat plain events', () => {
    const stringify = vi.spyOn(JSON, 'stringify')
    const roundTrip = (value: object) => JSON.parse(JSON.stringify(value))
    const flat = [
      { type: 'session.input_audio.append', event_id: 'e1', audio_bytes: 960 },
      { type: 'x', text: 'lone \ud800 surrogate "quoted"', n: 1.5e-7, big: 2 ** 60, yes: true, none: null },
      Object.assign(Object.create(null), { type: 'null-prototype', n: 3 }),
      {},
    ]
    for (const event of flat) {
      const calls = stringify.mock.calls.length
      const expected = roundTrip(event)
      const before = stringify.mock.calls.length
      expect(before).toBe(calls + 1)
      const plain = jsonPlain(event)
      expect(stringify.mock.calls.length).toBe(before) // fast path: no round trip
      expect(plain).toEqual(expected)
      expect(JSON.stringify(plain)).toBe(JSON.stringify(expected))
    }
    const slow: Record<string, unknown>[] = [
      { type: 'nested', item: { content: [{ text: 'hi' }] } },
      { type: 'undefined field', gone: undefined, kept: 1 },
      { type: 'negative zero', at: -0 },
      { type: 'not finite', a: Number.NaN, b: Number.POSITIVE_INFINITY },
      { type: 'date', when: new Date(0) },
      new (class Custom {
        type = 'class instance'
        toJSON() {
          return { type: 'from toJSON' }
        }
      })() as unknown as Record<string, unknown>,
    ]
    for (const event of slow) {
      const plain = jsonPlain(event)
      expect(plain).not.toBe(event)
      expect(JSON.stringify(plain)).toBe(JSON.stringify(roundTrip(event)))
      expect(plain).toEqual(roundTrip(event))
    }
  })

  it('redacts secret fields, configured extra fields and known secret values', () => {
    const trace = new SessionTrace({ redactFields: ['customer_phone'], secretValues: ['tok-abcdefgh-123'] })
    trace.add('client', 'sent', 0, {
      type: 'session.start',
      session: { api_key: 'sk-live', customer_phone: '555-0100', note: 'token tok-abcdefgh-123 here' },
    })
    const line = trace.toJsonl()
    expect(line).not.toContain('sk-live')
    expect(line).not.toContain('555-0100')
    expect(line).not.toContain('tok-abcdefgh-123')
    expect(line).toContain('[redacted]')
  })

  it('writes one JSON object per line and never mutates the event it was given', () => {
    const event = { type: 'session.input_audio.append', audio: AUDIO }
    const trace = new SessionTrace()
    trace.add('client', 'sent', 20, event)
    trace.add('client', 'sent', 40, event)
    expect(event.audio).toBe(AUDIO)
    const lines = trace.toJsonl().trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line).event_index)).toEqual([1, 2])
  })
})
