import { afterEach, describe, expect, it, vi } from 'vitest'
import { SessionTrace, withoutRawAudio } from './trace.ts'

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
    const serialized = stringify.mock.results.map((result) => String(result.value))
    expect(serialized.length).toBeGreaterThan(0)
    for (const text of serialized) expect(text).not.toContain(AUDIO)
    expect(trace.records.map((record) => record.event)).toEqual([
      { type: 'session.output_audio.delta', delta_bytes: 960 },
      { type: 'session.input_audio.append', audio_bytes: 960 },
    ])
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
