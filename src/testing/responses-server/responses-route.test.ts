import OpenAI from 'openai'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { responsesRoute, type ScriptedResponse } from './responses-route.ts'
import { type ResponsesServer, startResponsesServer } from './server.ts'

let server: ResponsesServer
let client: OpenAI
let script: ScriptedResponse[]

beforeEach(async () => {
  script = []
  server = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({
        respond: (_request, index) => script[index] ?? { output: [{ type: 'message', text: 'Unscripted.' }] },
      }),
    },
  })
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
})

afterEach(async () => {
  await server.close()
})

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

describe('POST /v1/responses', () => {
  it('streams a function call then completes, in the API order, through the openai client', async () => {
    script.push({
      output: [
        {
          type: 'function_call',
          name: 'check_availability',
          arguments: '{"party_size":2}',
          call_id: 'call_1',
        },
      ],
    })
    const events = await collect(
      await client.responses.create({ model: 'gpt-test', input: 'hi', stream: true }),
    )
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6])
    const completed = events.at(-1)
    expect(completed?.type === 'response.completed' && completed.response.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_1',
        name: 'check_availability',
        status: 'completed',
      }),
    ])
  })

  it('streams message text as deltas that join to the text', async () => {
    script.push({ output: [{ type: 'message', text: 'Thursday at two is free.' }] })
    const events = await collect(
      await client.responses.create({ model: 'gpt-test', input: 'hi', stream: true }),
    )
    const deltas = events.flatMap((event) =>
      event.type === 'response.output_text.delta' ? [event.delta] : [],
    )
    expect(deltas.join('')).toBe('Thursday at two is free.')
  })

  it('includes encrypted reasoning only when the request asks for it', async () => {
    script.push({ output: [{ type: 'reasoning' }] }, { output: [{ type: 'reasoning' }] })
    const asked = await client.responses.create({
      model: 'm',
      input: 'x',
      include: ['reasoning.encrypted_content'],
      store: false,
    })
    const plain = await client.responses.create({ model: 'm', input: 'x' })
    expect(asked.output[0]).toHaveProperty('encrypted_content')
    expect(plain.output[0]).not.toHaveProperty('encrypted_content')
  })

  it('ends a stream with response.failed, response.incomplete, an error event, or no completion', async () => {
    script.push(
      { output: [], ending: 'failed' },
      { output: [], ending: 'incomplete' },
      { output: [], ending: 'cut_short' },
    )
    const failed = await collect(await client.responses.create({ model: 'm', input: 'x', stream: true }))
    expect(failed.at(-1)?.type).toBe('response.failed')
    const incomplete = await collect(await client.responses.create({ model: 'm', input: 'x', stream: true }))
    expect(incomplete.at(-1)?.type).toBe('response.incomplete')
    const cut = await collect(await client.responses.create({ model: 'm', input: 'x', stream: true }))
    expect(cut.at(-1)?.type).toBe('response.in_progress')
    script.push({ output: [], ending: 'error_event' })
    await expect(
      collect(await client.responses.create({ model: 'm', input: 'x', stream: true })),
    ).rejects.toThrow(/scripted stream failed/)
  })

  it('records the request and refuses unknown fields like the API', async () => {
    await client.responses.create({ model: 'm', input: [{ role: 'user', content: 'hello' }], store: false })
    expect(server.requestsTo('POST', '/v1/responses')[0]?.body).toMatchObject({ store: false, model: 'm' })
    const unknown = client.post('/responses', { body: { model: 'm', input: 'x', colour: 'blue' } })
    await expect(unknown).rejects.toMatchObject({ status: 400, message: expect.stringContaining('colour') })
  })
})
