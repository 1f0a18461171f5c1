// Inputs the openai SDK types allow are never answered as if they were invalid: the offline server accepts
// what it can model (message items in all their SDK forms, every SDK tool type as configuration) and refuses
// the rest by name with `unsupported_in_offline_server`. Only input outside the SDK's types gets a
// service-looking validation code.
import { describe, expect, it } from 'vitest'
import { MAX_QUOTED_CHARS } from './protocol-errors.ts'
import {
  bookTableTool,
  type Frame,
  type RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from './test-support.ts'

const { connect } = useOfflineLiveServer()

const responsesConfig = (tools: unknown[] = [bookTableTool]) => ({
  model: 'gpt-live-1',
  delegation: { type: 'responses', responses: { model: 'gpt-5.6-terra', tools } },
})

/** Sends `event` followed by a mute probe; returns the error answering `event`, or null when there was none. */
async function answerTo(client: RawLiveClient, event: Record<string, unknown> & { event_id: string }) {
  client.send(event)
  client.send({ type: 'session.input_audio.mute', event_id: `${event.event_id}_probe` })
  await client.waitFor((frame) => frame.client_event_id === `${event.event_id}_probe`)
  const error = client.events.find(
    (frame) => frame.type === 'error' && frame.client_event_id === event.event_id,
  )
  return error === undefined ? null : (error.error as Record<string, unknown>)
}

async function responsesClient(): Promise<RawLiveClient> {
  const client = await connect({ hearing: [], behaviour: testBehaviour })
  await client.start(responsesConfig())
  return client
}

const itemCreate = (event_id: string, item: unknown) => ({ type: 'response.item.create', event_id, item })

describe('SDK-valid response.item.create items', () => {
  it.each([
    ['string content and no type (EasyInputMessage)', { role: 'user', content: 'Order A0042' }],
    [
      'an assistant EasyInputMessage with a phase',
      { role: 'assistant', content: 'Earlier.', phase: 'final_answer' },
    ],
    [
      'an input_file part',
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_file', filename: 'menu.pdf', file_id: 'file_1' }],
      },
    ],
    [
      'text and image parts with a status',
      {
        role: 'developer',
        status: 'completed',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', detail: 'auto', image_url: 'https://example.test/a.png' },
        ],
      },
    ],
    [
      'an earlier assistant output message',
      {
        type: 'message',
        id: 'msg_0',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello.', annotations: [] }],
      },
    ],
  ])('accepts %s', async (_what, item) => {
    const client = await responsesClient()
    expect(await answerTo(client, itemCreate('item', item))).toBeNull()
  })

  it.each([
    ['an item reference (no type, no role)', { id: 'msg_1' }, 'item references'],
    ['a reasoning item', { type: 'reasoning', id: 'rs_1', summary: [] }, "'reasoning' input items"],
    [
      'an MCP approval response',
      { type: 'mcp_approval_response', approval_request_id: 'a', approve: true },
      'mcp',
    ],
  ])('refuses %s by name as unsupported offline', async (_what, item, named) => {
    const client = await responsesClient()
    const error = await answerTo(client, itemCreate('item', item))
    expect(error).toMatchObject({ code: 'unsupported_in_offline_server', param: 'item.type' })
    expect(String(error?.message)).toContain(named)
  })

  it('gives the validation code only to what is not an SDK item at all', async () => {
    const client = await responsesClient()
    expect(await answerTo(client, itemCreate('bogus', { type: 'banana' }))).toMatchObject({
      code: 'invalid_value',
      param: 'item.type',
    })
    const typo = await answerTo(
      client,
      itemCreate('typo', { type: 'function_call_output', call_id: 'call_1', output: 'ok', outptu: 'x' }),
    )
    expect(typo).toMatchObject({ code: 'unknown_parameter', param: 'item.outptu' })
    const part = await answerTo(
      client,
      itemCreate('part', { role: 'user', content: [{ type: 'input_video' }] }),
    )
    expect(part).toMatchObject({ code: 'invalid_value' })
  })
})

describe('SDK tool types under Responses delegation', () => {
  const hosted = [
    'web_search',
    'file_search',
    'code_interpreter',
    'image_generation',
    'mcp',
    'custom',
    'namespace',
    'tool_search',
    'programmatic_tool_calling',
    'computer',
    'apply_patch',
  ]

  it('accepts every SDK tool type as configuration and echoes it in session.started', async () => {
    const client = await connect({ hearing: [] })
    const tools = [bookTableTool, { type: 'shell' }, ...hosted.map((type) => ({ type }))]
    const started = await client.start(responsesConfig(tools))
    expect(
      (started.session as { delegation: { responses: { tools: unknown } } }).delegation.responses.tools,
    ).toEqual(tools)
  })

  it('refuses a shell environment by name, and an unknown tool type as invalid', async () => {
    const shell = await connect({ hearing: [] })
    shell.send({
      type: 'session.start',
      event_id: 's',
      session: responsesConfig([{ type: 'shell', environment: { type: 'local' } }]),
    })
    const refused = await shell.waitFor((event) => event.type === 'error')
    expect(refused.error).toMatchObject({
      code: 'unsupported_in_offline_server',
      param: 'session.delegation.responses.tools[0].environment',
    })

    const bogus = await connect({ hearing: [] })
    bogus.send({ type: 'session.start', event_id: 'b', session: responsesConfig([{ type: 'banana' }]) })
    const invalid = await bogus.waitFor((event) => event.type === 'error')
    expect(invalid.error).toMatchObject({
      code: 'invalid_value',
      param: 'session.delegation.responses.tools[0].type',
    })
  })
})

describe('error messages quote peer text briefly', () => {
  it('cuts a huge unknown event type or key to a short prefix', async () => {
    const client = await connect({ hearing: [] })
    await client.start()
    const huge = 'x'.repeat(200_000)
    client.send({ type: huge, event_id: 'big_type' })
    client.send({ type: 'session.input_audio.mute', event_id: 'big_key', [huge]: 1 })
    const byType = await client.waitFor((event: Frame) => event.client_event_id === 'big_type')
    const byKey = await client.waitFor((event: Frame) => event.client_event_id === 'big_key')
    for (const frame of [byType, byKey]) {
      const message = String((frame.error as { message: string }).message)
      expect(message.length).toBeLessThan(MAX_QUOTED_CHARS + 120)
      expect(message).toContain('(200000 characters)')
    }
  })
})
