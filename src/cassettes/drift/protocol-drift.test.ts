// The server-event model and the protocol drift check. Conformance: everything the offline server sends in a
// session that exercises every event it has (captions, audio, delegation under both targets, a nested Responses
// round with a function call and one with a message, appends, mute, an error, usage, close) is modelled exactly,
// so a finding against real traffic is the service's, not the model's. Then what a changed service would send:
// an unknown event type, an unknown field (also nested), a value of another shape; redacted values and the audio
// a cassette keeps out of its frames are never findings.
import { describe, expect, it } from 'vitest'
import { BACKEND_RESPONSE_MS } from '../../testing/live-server/index.ts'
import {
  bookTableTool,
  type Frame,
  type RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from '../../testing/live-server/test-support.ts'
import { testCassette } from '../cassette-header.test-helpers.ts'
import type { Cassette } from '../schema.ts'
import { eventFindings, protocolDrift } from './protocol-drift.ts'

const { connect } = useOfflineLiveServer()

const responsesSession = {
  model: 'gpt-live-1',
  delegation: { type: 'responses', responses: { model: 'gpt-5.6-terra', tools: [bookTableTool] } },
}

async function session(
  start: Record<string, unknown>,
  hearing: { text: string; startMs: number; endMs: number }[],
  drive: (client: RawLiveClient) => Promise<void>,
): Promise<Frame[]> {
  const client = await connect({ hearing, behaviour: testBehaviour })
  await client.start(start)
  await drive(client)
  client.send({ type: 'session.close', event_id: 'bye' })
  await client.waitFor((event) => event.type === 'session.closed')
  return client.events
}

function cassetteOf(events: Record<string, unknown>[]): Cassette {
  const frames = events.map((event, seq) => ({
    seq,
    direction: 'received' as const,
    at_ms: seq,
    event: event as Cassette['sessions'][number]['frames'][number]['event'],
  }))
  return testCassette(
    { id: 'x__responses', scenario_id: 'x', live_evals_version: '0', openai_sdk_version: '0' },
    { sessions: [{ label: 'assistant', frames }] },
  )
}

describe('the offline server’s server-event model', () => {
  it('models every event the offline server sends, exactly (no finding on its own traffic)', async () => {
    const booking = await session(
      responsesSession,
      [
        { text: 'please book it', startMs: 200, endMs: 900 },
        { text: 'and what time is it', startMs: 9_000, endMs: 9_800 },
      ],
      async (client) => {
        client.send({
          type: 'session.commentary.append',
          event_id: 'c1',
          delegation_id: null,
          content: 'Hi.',
        })
        client.send({ type: 'session.input_audio.mute', event_id: 'm1' })
        client.send({ type: 'session.input_audio.unmute', event_id: 'm2' })
        client.send({ type: 'session.bogus', event_id: 'e1' })
        client.sendAudio(1_400 + BACKEND_RESPONSE_MS, 40)
        await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
        client.send({
          type: 'response.item.create',
          item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"table":4}' },
        })
        client.send({ type: 'response.create' })
        client.sendAudio(12_000, 40)
      },
    )
    const client = await session(
      { model: 'gpt-live-1' },
      [{ text: 'please book it', startMs: 200, endMs: 900 }],
      async (c) => {
        c.sendAudio(4_000, 40)
      },
    )
    const types = new Set([...booking, ...client].map((event) => event.type))
    for (const type of [
      'session.started',
      'session.commentary.appended',
      'session.input_audio.muted',
      'session.input_audio.unmuted',
      'error',
      'session.input_transcript.delta',
      'session.output_transcript.delta',
      'session.output_audio.delta',
      'session.delegation.created',
      'response.event',
      'session.usage.updated',
      'session.closed',
    ]) {
      expect(types, type).toContain(type)
    }
    expect(protocolDrift([cassetteOf(booking), cassetteOf(client)])).toEqual([])
  })
})

describe('protocol drift', () => {
  const started = {
    type: 'session.started',
    event_id: 'event_1',
    session: {
      id: 'sess_1',
      expires_at: 1,
      model: 'gpt-live-1',
      status: 'active',
      instructions: null,
      audio: { format: { type: 'audio/pcm', rate: 24_000 }, output: { voice: 'marin' } },
      delegation: { type: 'client' },
      input: [],
      store: false,
    },
  }

  it('names an event type, a field and a value shape the offline server does not send', () => {
    expect(eventFindings(started)).toEqual([])
    expect(eventFindings({ type: 'session.turn.detected', event_id: 'e' })).toEqual([
      expect.objectContaining({ kind: 'unknown_event_type', event_type: 'session.turn.detected', path: '' }),
    ])
    const extra = { ...started, session: { ...started.session, turn_detection: { type: 'semantic' } } }
    expect(eventFindings(extra)).toEqual([
      expect.objectContaining({
        kind: 'unknown_field',
        event_type: 'session.started',
        path: 'session.turn_detection',
        detail: expect.stringContaining('{"type":"semantic"}'),
      }),
    ])
    expect(eventFindings({ type: 'session.usage.updated', event_id: 'e', usage: { seconds: '3' } })).toEqual([
      expect.objectContaining({
        kind: 'different_shape',
        event_type: 'session.usage.updated',
        path: 'usage.seconds',
      }),
    ])
    expect(
      eventFindings({
        type: 'response.event',
        event_id: 'e',
        delegation_id: 'd',
        event: { type: 'response.reasoning_summary_text.delta', sequence_number: 1 },
      }),
    ).toEqual([
      expect.objectContaining({ event_type: 'response.event › response.reasoning_summary_text.delta' }),
    ])
  })

  it('counts findings per kind, type and path with the first frame, and forgives redaction and kept-out audio', () => {
    const drifted = {
      type: 'session.started',
      event_id: 'e',
      session: { ...started.session, id: '[redacted]', extra: 1 },
    }
    const cassette = cassetteOf([drifted, drifted, { type: 'session.output_audio.delta' }])
    cassette.sessions[0]?.frames.splice(2, 1, {
      seq: 2,
      direction: 'received',
      at_ms: 2,
      event: { type: 'session.output_audio.delta' },
      audio: { file: 'assistant.received.pcm', offset: 0, bytes: 2, sha256: '0'.repeat(64) },
    })
    expect(protocolDrift([cassette])).toEqual([
      {
        kind: 'unknown_field',
        event_type: 'session.started',
        path: 'session.extra',
        detail: 'the offline server never sends this field (seen: 1)',
        count: 2,
        first: { cassette: 'x__responses', session: 'assistant', seq: 0 },
      },
    ])
  })
})
