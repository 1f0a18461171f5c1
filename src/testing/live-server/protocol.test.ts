import { describe, expect, it } from 'vitest'
import {
  bookTableTool,
  type Frame,
  type RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from './test-support.ts'

const { connect } = useOfflineLiveServer()

const isError = (clientEventId: string) => (event: Frame) =>
  event.type === 'error' && event.client_event_id === clientEventId

async function errorFor(client: RawLiveClient, event: Record<string, unknown> & { event_id: string }) {
  client.send(event)
  const error = await client.waitFor(isError(event.event_id), `error for ${event.event_id}`)
  return error.error as Record<string, unknown>
}

describe('session start', () => {
  it('answers session.start with session.started carrying the resolved config and the client_event_id', async () => {
    const client = await connect()
    const started = await client.start({ model: 'gpt-live-1', instructions: 'Be brief.' })
    expect(started.client_event_id).toBe('evt_start')
    expect(started.session).toMatchObject({
      // Registered sessions are named after a digest of their token (here `token-0`), not connection order.
      id: expect.stringMatching(/^live_offline_[0-9a-f]{12}$/),
      model: 'gpt-live-1',
      status: 'active',
      instructions: 'Be brief.',
      audio: { format: { type: 'audio/pcm', rate: 24000 }, output: { voice: 'marin' } },
      delegation: { type: 'client' },
      input: [],
      store: false,
    })
  })

  it('refuses any other first frame with an error and closes the socket', async () => {
    const client = await connect()
    client.send({ type: 'session.input_audio.append', event_id: 'a1', audio: 'AAAA' })
    const error = await client.waitFor(isError('a1'))
    expect(error.error).toMatchObject({
      code: 'session_not_started',
      param: 'type',
      type: 'invalid_request_error',
    })
    expect(await client.waitForClose()).toBe(1008)
    expect(client.events.some((event) => event.type === 'session.started')).toBe(false)
  })

  it('rejects a second session.start and keeps the session running', async () => {
    const client = await connect()
    await client.start()
    const error = await errorFor(client, {
      type: 'session.start',
      event_id: 's2',
      session: { model: 'gpt-live-1' },
    })
    expect(error.code).toBe('session_already_started')
    client.send({ type: 'session.input_audio.mute', event_id: 'm1' })
    await client.waitFor(
      (event) => event.type === 'session.input_audio.muted' && event.client_event_id === 'm1',
    )
  })

  it.each([
    [{ model: 'gpt-live-1', voice: 'marin' }, 'unknown_parameter', 'session.voice'],
    [
      { model: 'gpt-live-1', audio: { output: { voice: 'marin', speed: 2 } } },
      'unknown_parameter',
      'session.audio.output.speed',
    ],
    [
      {
        model: 'gpt-live-1',
        delegation: { type: 'responses', responses: { model: 'm', tools: [{ ...bookTableTool, extra: 1 }] } },
      },
      'unknown_parameter',
      'session.delegation.responses.tools[0].extra',
    ],
    [{ instructions: 'no model' }, 'missing_required_parameter', 'session.model'],
    [
      { model: 'gpt-live-1', audio: { format: { type: 'audio/pcm', rate: 44100 } } },
      'invalid_value',
      'session.audio.format.rate',
    ],
    [{ model: 'gpt-live-1', delegation: { type: 'robots' } }, 'invalid_value', 'session.delegation.type'],
  ])('rejects a strict-config violation in session.start: %j', async (session, code, param) => {
    const client = await connect()
    client.send({ type: 'session.start', event_id: 'bad', session })
    const error = await client.waitFor(isError('bad'))
    expect(error.error).toMatchObject({ code, param, client_event_id: 'bad' })
    expect(await client.waitForClose()).toBe(1008)
  })
})

describe('commands on a started session', () => {
  it('rejects unknown event fields with unknown_parameter and the field path', async () => {
    const client = await connect()
    await client.start()
    const error = await errorFor(client, { type: 'session.input_audio.mute', event_id: 'x', muted: true })
    expect(error).toMatchObject({ code: 'unknown_parameter', param: 'muted' })
  })

  it('rejects a frame that is not JSON and an unknown event type', async () => {
    const client = await connect()
    await client.start()
    client.sendText('not json')
    await client.waitFor(
      (event) => event.type === 'error' && (event.error as { code: string }).code === 'invalid_event',
    )
    const error = await errorFor(client, { type: 'session.dance', event_id: 'd' })
    expect(error).toMatchObject({ code: 'invalid_event', param: 'type' })
  })

  it('requires the delegation_id key on appends, even though null is allowed', async () => {
    const client = await connect()
    await client.start()
    const error = await errorFor(client, { type: 'session.thinking.append', event_id: 't', content: 'hello' })
    expect(error).toMatchObject({ code: 'missing_required_parameter', param: 'delegation_id' })
  })

  it('rejects empty append content and unknown delegation ids', async () => {
    const client = await connect()
    await client.start()
    const empty = await errorFor(client, {
      type: 'session.commentary.append',
      event_id: 'c1',
      delegation_id: null,
      content: '  ',
    })
    expect(empty).toMatchObject({ code: 'invalid_value', param: 'content' })
    const unknown = await errorFor(client, {
      type: 'session.commentary.append',
      event_id: 'c2',
      delegation_id: 'item_nope',
      content: 'Done.',
    })
    expect(unknown).toMatchObject({ code: 'invalid_value', param: 'delegation_id' })
  })

  it('rejects non-null delegation ids under Responses delegation', async () => {
    const client = await connect()
    await client.start({ model: 'gpt-live-1', delegation: { type: 'responses', responses: { model: 'm' } } })
    const error = await errorFor(client, {
      type: 'session.commentary.append',
      event_id: 'c',
      delegation_id: 'item_deleg_1',
      content: 'Done.',
    })
    expect(error).toMatchObject({ code: 'invalid_value', param: 'delegation_id' })
  })

  it('rejects odd PCM byte counts, empty audio and bad base64 with invalid_audio', async () => {
    const client = await connect()
    await client.start()
    const odd = Buffer.alloc(3).toString('base64')
    expect(
      await errorFor(client, { type: 'session.input_audio.append', event_id: 'o', audio: odd }),
    ).toMatchObject({
      code: 'invalid_audio',
      param: 'audio',
    })
    expect(
      await errorFor(client, { type: 'session.input_audio.append', event_id: 'e', audio: '' }),
    ).toMatchObject({
      code: 'invalid_audio',
    })
    expect(
      await errorFor(client, { type: 'session.input_audio.append', event_id: 'b', audio: 'a*b=' }),
    ).toMatchObject({ code: 'invalid_audio' })
  })

  it('accepts response.* commands only under Responses delegation', async () => {
    const client = await connect()
    await client.start()
    expect(await errorFor(client, { type: 'response.create', event_id: 'r' })).toMatchObject({
      code: 'not_responses_delegation',
    })
    const item = { type: 'function_call_output', call_id: 'call_1', output: '{}' }
    expect(await errorFor(client, { type: 'response.item.create', event_id: 'i', item })).toMatchObject({
      code: 'not_responses_delegation',
    })
  })

  it('rejects response.create with a body', async () => {
    const client = await connect()
    await client.start({ model: 'gpt-live-1', delegation: { type: 'responses', responses: { model: 'm' } } })
    const error = await errorFor(client, { type: 'response.create', event_id: 'r', response: { input: [] } })
    expect(error).toMatchObject({ code: 'unknown_parameter', param: 'response' })
  })

  it('rejects session.update of immutable fields and of the delegation type', async () => {
    const client = await connect()
    await client.start({ model: 'gpt-live-1', delegation: { type: 'responses', responses: { model: 'm' } } })
    const model = await errorFor(client, {
      type: 'session.update',
      event_id: 'u1',
      session: { model: 'other' },
    })
    expect(model).toMatchObject({ code: 'immutable_field_update', param: 'session.model' })
    const type = await errorFor(client, {
      type: 'session.update',
      event_id: 'u2',
      session: { delegation: { type: 'client' } },
    })
    expect(type).toMatchObject({ code: 'immutable_field_update', param: 'session.delegation.type' })
    const reset = await errorFor(client, {
      type: 'session.update',
      event_id: 'u3',
      session: { delegation: null },
    })
    expect(reset).toMatchObject({ code: 'immutable_field_update', param: 'session.delegation.type' })
  })

  it('applies a sparse Responses settings update and reports the full session', async () => {
    const client = await connect()
    await client.start({
      model: 'gpt-live-1',
      delegation: {
        type: 'responses',
        responses: { model: 'm', instructions: 'backend', tools: [bookTableTool] },
      },
    })
    client.send({
      type: 'session.update',
      event_id: 'u',
      session: { delegation: { type: 'responses', responses: { model: 'm2' } } },
    })
    const updated = await client.waitFor((event) => event.type === 'session.updated')
    expect(updated.client_event_id).toBe('u')
    expect(updated.session).toMatchObject({
      delegation: {
        type: 'responses',
        responses: { model: 'm2', instructions: 'backend', tools: [bookTableTool] },
      },
    })
  })

  it('puts an event_id on every server event except output audio deltas', async () => {
    const client = await connect({
      hearing: [{ text: 'hello there', startMs: 100, endMs: 600 }],
      behaviour: testBehaviour,
    })
    await client.start()
    client.sendAudio(3_000)
    await client.waitFor((event) => event.type === 'session.usage.updated')
    const audio = client.events.filter((event) => event.type === 'session.output_audio.delta')
    const others = client.events.filter((event) => event.type !== 'session.output_audio.delta')
    expect(audio.length).toBeGreaterThan(0)
    expect(audio.every((event) => !('event_id' in event))).toBe(true)
    expect(others.every((event) => typeof event.event_id === 'string')).toBe(true)
    expect(new Set(others.map((event) => event.event_id)).size).toBe(others.length)
  })
})

describe('closing', () => {
  it('answers session.close with session.closed (reason, usage, client_event_id) and closes the socket', async () => {
    const client = await connect()
    await client.start()
    client.sendAudio(1_500)
    client.send({ type: 'session.close', event_id: 'bye' })
    const closed = await client.waitFor((event) => event.type === 'session.closed')
    expect(closed).toMatchObject({
      reason: 'close_requested',
      client_event_id: 'bye',
      usage: { seconds: 1.5 },
    })
    expect((closed.session as { status: string }).status).toBe('active')
    expect(await client.waitForClose()).toBe(1000)
  })

  it('answers pending appends with errors at close, before session.closed', async () => {
    const client = await connect()
    await client.start()
    client.send({
      type: 'session.thinking.append',
      event_id: 'th',
      delegation_id: null,
      content: 'Remember the patio.',
    })
    client.send({ type: 'session.close', event_id: 'bye' })
    await client.waitFor((event) => event.type === 'session.closed')
    const types = client.events.map((event) => event.type)
    const error = client.events.find(isError('th'))
    expect(error?.error).toMatchObject({ code: 'session_closing', client_event_id: 'th' })
    expect(types.indexOf('error')).toBeLessThan(types.indexOf('session.closed'))
    expect(types).not.toContain('session.thinking.appended')
  })

  it('rejects commands sent after session.close', async () => {
    const client = await connect({ hearing: [], faults: { withholdSessionClosed: true } })
    await client.start()
    client.send({ type: 'session.close', event_id: 'bye' })
    const error = await errorFor(client, { type: 'session.input_audio.mute', event_id: 'late' })
    expect(error.code).toBe('session_closing')
    const audio = await errorFor(client, {
      type: 'session.input_audio.append',
      event_id: 'late2',
      audio: 'AAAA',
    })
    expect(audio.code).toBe('session_closing')
  })
})
