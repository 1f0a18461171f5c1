import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pcm16FromBytes } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { type ResponsesServer, startResponsesServer } from './server.ts'

let server: ResponsesServer
let client: OpenAI

beforeEach(async () => {
  server = await startResponsesServer()
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
})

afterEach(async () => {
  await server.close()
})

describe('test OpenAI server', () => {
  it('listens on loopback with a /v1 base URL', () => {
    expect(server.baseURL).toBe(`http://127.0.0.1:${server.port}/v1`)
    expect(server.port).toBeGreaterThan(0)
  })

  it('answers audio.speech with deterministic synthetic PCM and records the request', async () => {
    const response = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: 'One moment please.',
      response_format: 'pcm',
    })
    const samples = pcm16FromBytes(new Uint8Array(await response.arrayBuffer()))
    expect([...samples]).toEqual([...syntheticSpeech('One moment please.')])
    const [recorded] = server.requestsTo('POST', '/v1/audio/speech')
    expect(recorded?.headers.authorization).toBe('Bearer test')
    expect(recorded?.body).toMatchObject({ input: 'One moment please.', voice: 'coral' })
  })

  it('rejects formats other than pcm, and unknown fields, like the API (400 with param)', async () => {
    const wav = client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'x',
      response_format: 'wav',
    })
    await expect(wav).rejects.toMatchObject({ status: 400, param: 'response_format' })
    const unknown = client.post('/audio/speech', {
      body: { model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'pcm', pitch: 2 },
    })
    await expect(unknown).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Unknown parameter: pitch'),
    })
    const empty = client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: '',
      response_format: 'pcm',
    })
    await expect(empty).rejects.toMatchObject({ status: 400, param: 'input' })
  })

  it('refuses a missing or wrong API key', async () => {
    const anonymous = await fetch(`${server.baseURL}/audio/speech`, { method: 'POST', body: '{}' })
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ error: { code: 'invalid_api_key' } })

    const strict = await startResponsesServer({ apiKey: 'right' })
    try {
      const wrong = new OpenAI({ apiKey: 'wrong', baseURL: strict.baseURL, maxRetries: 0 })
      await expect(
        wrong.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'pcm' }),
      ).rejects.toMatchObject({ status: 401 })
    } finally {
      await strict.close()
    }
  })

  it('answers an unknown route with a 404 in the API error shape', async () => {
    await expect(client.models.list()).rejects.toMatchObject({
      status: 404,
      error: { message: 'No test route for GET /v1/models.' },
    })
  })

  it('lets tests add routes, including handlers that write the response themselves', async () => {
    server.route('POST', '/v1/responses', (request) => ({ body: { echoed: request.body } }))
    server.route('GET', '/v1/stream', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end('data: hello\n\n')
      return undefined
    })
    const echoed = await fetch(`${server.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ a: 1 }),
    })
    expect(await echoed.json()).toEqual({ echoed: { a: 1 } })
    const streamed = await fetch(`${server.baseURL}/stream?x=1`, { headers: { authorization: 'Bearer k' } })
    expect(await streamed.text()).toBe('data: hello\n\n')
    expect(server.requestsTo('GET', '/v1/stream')[0]?.query).toEqual({ x: '1' })
  })

  it('turns a throwing handler into a 500 naming the failure', async () => {
    server.route('POST', '/v1/boom', () => {
      throw new Error('handler exploded')
    })
    const response = await fetch(`${server.baseURL}/boom`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
    })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({
      error: { message: 'Test server handler failed: handler exploded' },
    })
  })

  it('accepts routes at start-up and closes more than once', async () => {
    const custom = await startResponsesServer({ routes: { 'GET /v1/ping': () => ({ body: 'pong' }) } })
    const reply = await fetch(`${custom.baseURL}/ping`, { headers: { authorization: 'Bearer k' } })
    expect(await reply.text()).toBe('pong')
    await custom.close()
    await custom.close()
    await expect(fetch(`${custom.baseURL}/ping`)).rejects.toThrow()
  })
})
