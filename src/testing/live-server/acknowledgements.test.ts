import { describe, expect, it } from 'vitest'
import { BACKEND_RESPONSE_MS, DEFAULT_ACKNOWLEDGEMENT, RESPONSE_SILENCE_MS } from './index.ts'
import {
  bookTableTool,
  type Frame,
  type RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from './test-support.ts'

const { connect } = useOfflineLiveServer()

const DELEGATED_AT_MS = 600 + RESPONSE_SILENCE_MS
const hearing = [{ text: 'book a table', startMs: 0, endMs: 600 }]

const captions = (client: RawLiveClient) =>
  client.events.filter((event) => event.type === 'session.output_transcript.delta')
const spoken = (client: RawLiveClient) =>
  captions(client)
    .map((event) => event.delta)
    .join('')

/** Sends `ms` of audio, then waits until the server has processed it (its mute/unmute answer arrived). */
let syncs = 0
async function advance(client: RawLiveClient, ms: number): Promise<void> {
  client.sendAudio(ms, 100)
  const id = `sync_${++syncs}`
  client.send({ type: 'session.input_audio.mute', event_id: id })
  client.send({ type: 'session.input_audio.unmute', event_id: `${id}_u` })
  await client.waitFor((event) => event.client_event_id === `${id}_u`, `the answer to ${id}`)
}

async function clientSession(delegation: Record<string, unknown>, acknowledgement?: string) {
  const client = await connect({
    hearing,
    behaviour: testBehaviour,
    ...(acknowledgement === undefined ? {} : { acknowledgement }),
  })
  await client.start({ model: 'gpt-live-1', delegation })
  return client
}

describe("the service's acknowledgement after session.delegation.created", () => {
  it('is spoken at once by default (acknowledgement_delay_ms 0), between the delegation and its result', async () => {
    const client = await clientSession({ type: 'client' })
    await advance(client, 3_000)
    const types = client.events.map((event) => event.type)
    expect(types.indexOf('session.delegation.created')).toBeLessThan(
      types.indexOf('session.output_transcript.delta'),
    )
    expect(spoken(client)).toBe(DEFAULT_ACKNOWLEDGEMENT)
    expect(captions(client)[0]).toMatchObject({ start_ms: DELEGATED_AT_MS })
    expect(types).toContain('session.output_audio.delta')
  })

  it('waits acknowledgement_delay_ms of session time, in the script’s words when it gives some', async () => {
    const client = await clientSession({ type: 'client', acknowledgement_delay_ms: 700 }, 'Let me look.')
    await advance(client, DELEGATED_AT_MS + 600)
    expect(captions(client)).toHaveLength(0)
    await advance(client, 2_000)
    expect(spoken(client)).toBe('Let me look.')
    expect(captions(client)[0]).toMatchObject({ start_ms: DELEGATED_AT_MS + 700 })
  })

  it.each(['session.thinking.append', 'session.commentary.append'])(
    'is cancelled while pending by %s (and commentary is then what is said)',
    async (type) => {
      const client = await clientSession({ type: 'client', acknowledgement_delay_ms: 1_000 })
      await advance(client, DELEGATED_AT_MS + 100)
      expect(client.events.some((event) => event.type === 'session.delegation.created')).toBe(true)
      client.send({ type, event_id: 'ctx', delegation_id: 'item_deleg_1', content: 'Table 3 is booked.' })
      await advance(client, 4_000)
      expect(spoken(client)).not.toContain(DEFAULT_ACKNOWLEDGEMENT)
      expect(spoken(client)).toBe(type === 'session.commentary.append' ? 'Table 3 is booked.' : '')
    },
  )

  it('is not cancelled by instructions, nor by a thinking append the server refused', async () => {
    const client = await clientSession({ type: 'client', acknowledgement_delay_ms: 1_000 })
    await advance(client, DELEGATED_AT_MS + 100)
    client.send({
      type: 'session.instructions.append',
      event_id: 'i',
      delegation_id: null,
      content: 'Be brief.',
    })
    client.send({
      type: 'session.thinking.append',
      event_id: 'bad',
      delegation_id: 'item_nope',
      content: 'x',
    })
    await advance(client, 3_000)
    expect(client.events.find((event) => event.client_event_id === 'bad')).toMatchObject({ type: 'error' })
    expect(spoken(client)).toBe(DEFAULT_ACKNOWLEDGEMENT)
  })

  it('is not withdrawn once requested: commentary after it is spoken after a pause', async () => {
    const client = await clientSession({ type: 'client' })
    await advance(client, DELEGATED_AT_MS + 100)
    client.send({
      type: 'session.commentary.append',
      event_id: 'c',
      delegation_id: 'item_deleg_1',
      content: 'Done.',
    })
    await advance(client, 4_000)
    expect(spoken(client)).toBe(`${DEFAULT_ACKNOWLEDGEMENT}Done.`)
  })

  it('takes the delay in force when each delegation starts (session.update applies to later ones)', async () => {
    const client = await connect({
      hearing: [...hearing, { text: 'book another', startMs: 8_000, endMs: 8_600 }],
      behaviour: testBehaviour,
    })
    await client.start({ model: 'gpt-live-1', delegation: { type: 'client' } })
    await advance(client, 3_000)
    client.send({
      type: 'session.update',
      event_id: 'up',
      session: { delegation: { type: 'client', acknowledgement_delay_ms: 400 } },
    })
    await advance(client, 8_000)
    const starts = captions(client)
      .filter((event) => event.delta === 'One')
      .map((event) => event.start_ms)
    expect(starts).toEqual([DELEGATED_AT_MS, 8_600 + RESPONSE_SILENCE_MS + 400])
  })

  it('under Responses delegation is heard before the backend’s function call, which takes BACKEND_RESPONSE_MS', async () => {
    const client = await connect({ hearing, behaviour: testBehaviour })
    await client.start({
      model: 'gpt-live-1',
      delegation: { type: 'responses', responses: { model: 'gpt-5.6-terra', tools: [bookTableTool] } },
    })
    await advance(client, DELEGATED_AT_MS + BACKEND_RESPONSE_MS + 100)
    const types = client.events.map((event) => event.type)
    expect(types.indexOf('session.output_transcript.delta')).toBeGreaterThan(-1)
    expect(types.indexOf('session.output_transcript.delta')).toBeLessThan(types.indexOf('response.event'))
    expect(captions(client)[0]).toMatchObject({ start_ms: DELEGATED_AT_MS })
  })

  it('under Responses delegation is dropped when the answer comes first', async () => {
    const client = await connect({ hearing, behaviour: testBehaviour })
    await client.start({
      model: 'gpt-live-1',
      delegation: {
        type: 'responses',
        acknowledgement_delay_ms: 5_000,
        responses: { model: 'gpt-5.6-terra', tools: [bookTableTool] },
      },
    })
    await advance(client, DELEGATED_AT_MS + BACKEND_RESPONSE_MS + 100)
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
    client.send({
      type: 'response.item.create',
      item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"table":7}' },
    })
    client.send({ type: 'response.create' })
    await advance(client, 8_000)
    expect(spoken(client)).toBe('Booked table 7.')
  })
})
