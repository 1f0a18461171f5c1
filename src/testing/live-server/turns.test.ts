import { describe, expect, it, vi } from 'vitest'
import {
  BACKEND_RESPONSE_MS,
  DEFAULT_ACKNOWLEDGEMENT,
  INJECTION_MS_PER_TOKEN,
  type OfflineLiveServer,
  RESPONSE_SILENCE_MS,
  startOfflineLiveServer,
  USAGE_INTERVAL_MS,
} from './index.ts'
import {
  bookTableTool,
  type Frame,
  type RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from './test-support.ts'

const offline = useOfflineLiveServer()
const { connect } = offline

const ofType = (client: RawLiveClient, type: string) => client.events.filter((event) => event.type === type)
const nested = (client: RawLiveClient) =>
  ofType(client, 'response.event').map(
    (envelope) => envelope.event as Frame & { response?: Record<string, unknown> },
  )

const responsesSession = {
  model: 'gpt-live-1',
  delegation: { type: 'responses', responses: { model: 'gpt-5.6-terra', tools: [bookTableTool] } },
}

describe('the received-audio clock', () => {
  it('sends input transcripts only once the audio passes each word, timed on the audio clock', async () => {
    const client = await connect({ hearing: [{ text: 'what time is it', startMs: 500, endMs: 1_500 }] })
    await client.start()
    client.sendAudio(1_000)
    client.send({ type: 'session.input_audio.mute', event_id: 'sync1' })
    await client.waitFor((event) => event.client_event_id === 'sync1')
    const early = ofType(client, 'session.input_transcript.delta')
    expect(early.every((event) => (event.end_ms as number) <= 1_000)).toBe(true)
    expect(early.length).toBeLessThan(4)
    client.send({ type: 'session.input_audio.unmute', event_id: 'sync2' })
    client.sendAudio(600)
    await client.waitFor((event) => event.type === 'session.input_transcript.delta' && event.end_ms === 1_500)
    const deltas = ofType(client, 'session.input_transcript.delta')
    expect(deltas.map((event) => event.delta).join('')).toBe('what time is it')
    expect(deltas[0]).toMatchObject({ start_ms: 500 })
    expect(deltas.at(-1)).toMatchObject({ end_ms: 1_500 })
  })

  it('does not act before RESPONSE_SILENCE_MS of audio after the utterance, then answers directly', async () => {
    const client = await connect({
      hearing: [{ text: 'hello', startMs: 0, endMs: 400 }],
      behaviour: testBehaviour,
    })
    await client.start()
    client.sendAudio(400 + RESPONSE_SILENCE_MS - 20)
    client.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    expect(ofType(client, 'session.output_transcript.delta')).toHaveLength(0)
    client.send({ type: 'session.input_audio.unmute', event_id: 'sync2' })
    client.sendAudio(5_000)
    await client.waitFor((event) => event.type === 'session.usage.updated')
    const said = ofType(client, 'session.output_transcript.delta')
      .map((event) => event.delta)
      .join('')
    expect(said).toBe(testBehaviour.directAnswer('hello'))
    expect(ofType(client, 'session.output_transcript.delta')[0]).toMatchObject({
      start_ms: 400 + RESPONSE_SILENCE_MS,
    })
    expect(ofType(client, 'session.delegation.created')).toHaveLength(0)
  })

  it('does not hear what the caller says while input audio is muted', async () => {
    const client = await connect({
      hearing: [{ text: 'secret words', startMs: 100, endMs: 500 }],
      behaviour: testBehaviour,
    })
    await client.start()
    client.send({ type: 'session.input_audio.mute', event_id: 'm' })
    client.sendAudio(2_000)
    client.send({ type: 'session.input_audio.unmute', event_id: 'u' })
    await client.waitFor((event) => event.client_event_id === 'u')
    expect(ofType(client, 'session.input_transcript.delta')).toHaveLength(0)
    expect(ofType(client, 'session.output_transcript.delta')).toHaveLength(0)
  })

  it('is deterministic: the same frames give byte-identical server frames on a fresh server', async () => {
    const run = async (on: OfflineLiveServer) => {
      const client = await connect(
        {
          hearing: [{ text: 'please book it', startMs: 200, endMs: 900 }],
          behaviour: testBehaviour,
        },
        on,
        // Session and event ids derive from the token, so both runs register the same one.
        'determinism-token',
      )
      await client.start(responsesSession)
      client.sendAudio(1_400 + BACKEND_RESPONSE_MS, 40)
      await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
      client.send({
        type: 'response.item.create',
        item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"table":4}' },
      })
      client.send({ type: 'response.create' })
      client.sendAudio(6_000, 40)
      client.send({ type: 'session.close', event_id: 'bye' })
      await client.waitFor((event) => event.type === 'session.closed')
      return client.frames
    }
    const first = await run(offline.server)
    // The second run happens "years later" by the wall clock: nothing the server sends may depend on it.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2031-05-01T12:00:00Z'))
    const other = await startOfflineLiveServer()
    try {
      const second = await run(other)
      expect(second).toEqual(first)
      expect(first.some((frame) => frame.includes('session.output_audio.delta'))).toBe(true)
      expect(first.some((frame) => frame.includes('"response.completed"'))).toBe(true)
    } finally {
      vi.useRealTimers()
      await other.close()
    }
  })

  it('acknowledges an append only when the audio clock reaches the estimated end of the injection', async () => {
    const client = await connect({ hearing: [] })
    await client.start()
    client.sendAudio(100)
    const content = 'x'.repeat(400) // 100 estimated tokens
    client.send({ type: 'session.instructions.append', event_id: 'i', delegation_id: null, content })
    const endMs = 100 + 100 * INJECTION_MS_PER_TOKEN
    client.sendAudio(endMs - 100 - 20)
    client.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    expect(ofType(client, 'session.instructions.appended')).toHaveLength(0)
    client.sendAudio(20)
    const ack = await client.waitFor((event) => event.type === 'session.instructions.appended')
    expect(ack).toMatchObject({ client_event_id: 'i', start_ms: 100, end_ms: endMs })
  })

  it('reports cumulative usage once per USAGE_INTERVAL_MS of received audio', async () => {
    const client = await connect({ hearing: [] })
    await client.start()
    client.sendAudio(2 * USAGE_INTERVAL_MS + 500, 5_000)
    client.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    const seconds = ofType(client, 'session.usage.updated').map(
      (event) => (event.usage as { seconds: number }).seconds,
    )
    expect(seconds).toEqual([USAGE_INTERVAL_MS / 1000, (2 * USAGE_INTERVAL_MS) / 1000])
  })

  it('lets speech already under way finish before session.closed', async () => {
    const client = await connect({
      hearing: [{ text: 'hello', startMs: 0, endMs: 400 }],
      behaviour: testBehaviour,
    })
    await client.start()
    client.sendAudio(400 + RESPONSE_SILENCE_MS + 100)
    client.send({ type: 'session.close', event_id: 'bye' })
    await client.waitFor((event) => event.type === 'session.closed')
    const types = client.events.map((event) => event.type)
    const said = ofType(client, 'session.output_transcript.delta').map((event) => event.delta)
    expect(said.join('')).toBe(testBehaviour.directAnswer('hello'))
    expect(said.length).toBeGreaterThan(2)
    expect(types.lastIndexOf('session.output_audio.delta')).toBeLessThan(types.indexOf('session.closed'))
  })
})

describe('Responses delegation', () => {
  it('delegates, streams the nested function call, waits for the output and response.create, then speaks', async () => {
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
    })
    await client.start(responsesSession)
    client.sendAudio(1_000 + BACKEND_RESPONSE_MS)
    const created = await client.waitFor((event) => event.type === 'session.delegation.created')
    expect(created).toMatchObject({
      offset_ms: 600 + RESPONSE_SILENCE_MS,
      delegation: { id: 'item_deleg_1', type: 'delegation', target: 'responses', response_id: 'resp_1' },
    })
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
    const first = nested(client)
    expect(ofType(client, 'response.event').every((event) => event.delegation_id === 'item_deleg_1')).toBe(
      true,
    )
    expect(first.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    for (const event of first.filter((e) => e.response !== undefined)) {
      expect(event.response).toMatchObject({ id: 'resp_1', output: [], tools: [], instructions: null })
      expect('input' in (event.response ?? {})).toBe(false)
    }
    expect(first[0]?.response?.usage).toBeUndefined()
    expect(first.at(-1)?.response?.usage).toMatchObject({ input_tokens: expect.any(Number) })
    expect(first[2]).toMatchObject({ item: { type: 'function_call', status: 'in_progress', arguments: '' } })
    expect(first[5]).toMatchObject({
      item: {
        type: 'function_call',
        status: 'completed',
        call_id: 'call_1',
        name: 'book_table',
        arguments: '{"party":2}',
      },
    })

    // Nothing continues until the client returns the output and asks for the continuation.
    client.sendAudio(2_000)
    client.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    expect(nested(client)).toHaveLength(7)
    // Meanwhile the voice model acknowledged the delegation (acknowledgement_delay_ms defaults to 0).
    const spoken = () =>
      ofType(client, 'session.output_transcript.delta')
        .map((event) => event.delta)
        .join('')
    expect(spoken()).toBe(DEFAULT_ACKNOWLEDGEMENT)
    expect(ofType(client, 'session.output_transcript.delta')[0]).toMatchObject({
      start_ms: 600 + RESPONSE_SILENCE_MS,
    })

    client.send({
      type: 'response.item.create',
      event_id: 'out',
      item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"table":7}' },
    })
    client.send({ type: 'response.create', event_id: 'go' })
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.output_text.done')
    const second = nested(client).slice(7)
    expect(second[0]).toMatchObject({ type: 'response.created', response: { id: 'resp_2', output: [] } })
    const text = second
      .filter((e) => e.type === 'response.output_text.delta')
      .map((e) => e.delta)
      .join('')
    expect(text).toBe('Booked table 7.')
    client.send({ type: 'session.input_audio.unmute', event_id: 'sync2' })
    client.sendAudio(3_000)
    await client.waitFor(() => spoken().endsWith('7.'), 'the spoken answer')
    expect(spoken()).toBe(`${DEFAULT_ACKNOWLEDGEMENT}Booked table 7.`)
  })

  it('stamps backend created_at from the session start instant plus the received-audio clock', async () => {
    const expiresAt = 2_000_000_000
    // The session's start instant: expires_at minus the one-hour lifetime.
    const startedAt = expiresAt - 3_600
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
      expiresAt,
    })
    await client.start(responsesSession)
    client.sendAudio(1_000 + BACKEND_RESPONSE_MS)
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
    client.sendAudio(2_200)
    client.send({ type: 'session.input_audio.unmute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    client.send({
      type: 'response.item.create',
      item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"table":7}' },
    })
    client.send({ type: 'response.create' })
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.output_text.done')
    const createdAt = nested(client)
      .filter((event) => event.type === 'response.created')
      .map((event) => event.response?.created_at)
    // The first response is produced at 1.3 s of audio (delegation at 0.9 s plus the backend's time); the
    // continuation at once, after 3.6 s of it.
    expect(createdAt).toEqual([startedAt + 1, startedAt + 3])
  })

  it('rejects outputs for unknown calls, duplicates and a premature response.create', async () => {
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
    })
    await client.start(responsesSession)
    client.send({ type: 'response.create', event_id: 'early' })
    await client.waitFor((event) => event.client_event_id === 'early')
    client.sendAudio(1_000 + BACKEND_RESPONSE_MS)
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
    client.send({ type: 'response.create', event_id: 'missing' })
    const missing = await client.waitFor((event) => event.client_event_id === 'missing')
    expect(missing.error).toMatchObject({ code: 'invalid_value' })
    const output = (callId: string, id: string) => ({
      type: 'response.item.create',
      event_id: id,
      item: { type: 'function_call_output', call_id: callId, output: '{}' },
    })
    client.send(output('call_9', 'unknown'))
    const unknown = await client.waitFor((event) => event.client_event_id === 'unknown')
    expect(unknown.error).toMatchObject({ code: 'invalid_value', param: 'item.call_id' })
    client.send(output('call_1', 'ok'))
    client.send(output('call_1', 'dup'))
    const dup = await client.waitFor((event) => event.client_event_id === 'dup')
    expect(dup.error).toMatchObject({ code: 'invalid_value', param: 'item.call_id' })
    expect(client.events.some((event) => event.client_event_id === 'ok')).toBe(false)
  })

  it('answers directly when the backend does not have the tool the request needs', async () => {
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
    })
    await client.start({ model: 'gpt-live-1', delegation: { type: 'responses', responses: { model: 'm' } } })
    client.sendAudio(4_000)
    await client.waitFor((event) => event.type === 'session.usage.updated')
    expect(ofType(client, 'session.delegation.created')).toHaveLength(0)
    expect(
      ofType(client, 'session.output_transcript.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe(testBehaviour.directAnswer('book a table'))
  })
})

describe('client delegation', () => {
  it('delegates without task text, acks the commentary on the audio clock, then speaks it', async () => {
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
      acknowledgement: 'One moment.',
    })
    await client.start()
    client.sendAudio(1_000)
    const created = await client.waitFor((event) => event.type === 'session.delegation.created')
    expect(created.delegation).toEqual({ id: 'item_deleg_1', type: 'delegation', target: 'client' })
    expect(created.offset_ms).toBe(600 + RESPONSE_SILENCE_MS)
    expect(JSON.stringify(created)).not.toContain('book')
    client.sendAudio(1_000)
    await client.waitFor((event) => event.type === 'session.usage.updated')
    expect(
      ofType(client, 'session.output_transcript.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('One moment.')

    client.send({
      type: 'session.commentary.append',
      event_id: 'result',
      delegation_id: 'item_deleg_1',
      content: 'Table 3 is booked.',
    })
    client.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    expect(ofType(client, 'session.commentary.appended')).toHaveLength(0)
    client.sendAudio(3_000)
    const appended = await client.waitFor((event) => event.type === 'session.commentary.appended')
    expect(appended).toMatchObject({ client_event_id: 'result', start_ms: 2_000 })
    expect(appended.end_ms as number).toBeGreaterThan(2_000)
    await client.waitFor(
      (event) => event.type === 'session.usage.updated' && ofType(client, 'session.usage.updated').length > 1,
    )
    const spoken = ofType(client, 'session.output_transcript.delta')
      .map((e) => e.delta)
      .join('')
    expect(spoken).toBe('One moment.Table 3 is booked.')
  })
})
