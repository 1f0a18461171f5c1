import OpenAI, { APIConnectionTimeoutError, APIUserAbortError } from 'openai'
import { zodTextFormat } from 'openai/helpers/zod'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ScriptedFault } from './faults.ts'
import { responsesRoute, type ScriptedResponse, structuredAnswer } from './responses-route.ts'
import { inOrder } from './script.ts'
import { type ResponsesServer, startResponsesServer } from './server.ts'

const Verdict = z.strictObject({ verdict: z.enum(['yes', 'no']) })
const format = { format: zodTextFormat(Verdict, 'verdict') }

let server: ResponsesServer
let client: OpenAI
let script: (ScriptedResponse | ScriptedFault)[]

beforeEach(async () => {
  script = []
  server = await startResponsesServer({
    routes: { 'POST /v1/responses': responsesRoute({ respond: (r, i) => inOrder(script)(r, i) }) },
  })
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
})

afterEach(async () => {
  await server.close()
})

const parse = () => client.responses.parse({ model: 'judge-m', input: 'x', store: false, text: format })

describe('scripted structured answers and faults on POST /v1/responses', () => {
  it('answers responses.parse with the scripted structured value', async () => {
    script.push(structuredAnswer({ verdict: 'yes' }))
    const response = await parse()
    expect(response.output_parsed).toEqual({ verdict: 'yes' })
    expect(server.requestsTo('POST', '/v1/responses')[0]?.body).toMatchObject({
      store: false,
      text: { format: { type: 'json_schema', name: 'verdict', strict: true } },
    })
  })

  it('a 429 carries the retry hint, and the next scripted reply succeeds', async () => {
    script.push({ fault: 'rate_limited', retryAfterMs: 1500 }, structuredAnswer({ verdict: 'no' }))
    const limited = await parse().catch((error: unknown) => error)
    expect(limited).toMatchObject({ status: 429, code: 'rate_limit_exceeded' })
    expect((limited as { headers: Headers }).headers.get('retry-after-ms')).toBe('1500')
    expect((await parse()).output_parsed).toEqual({ verdict: 'no' })
  })

  it('a 500, a body that is not JSON, and a structured text the schema refuses', async () => {
    script.push(
      { fault: 'server_error' },
      { fault: 'malformed_json' },
      { output: [{ type: 'message', text: '{"verdict": "maybe"}' }] },
      { output: [{ type: 'message', text: '{"verdict": ' }] },
    )
    await expect(parse()).rejects.toMatchObject({ status: 500 })
    await expect(parse()).rejects.toBeInstanceOf(SyntaxError)
    await expect(parse()).rejects.toThrow(/verdict/)
    await expect(parse()).rejects.toThrow(/invalid structured output JSON/)
  })

  it('a refusal message parses to nothing', async () => {
    script.push({ output: [{ type: 'refusal', refusal: 'I cannot grade this.' }] })
    const response = await parse()
    expect(response.output_parsed).toBeNull()
    expect(response.output[0]).toMatchObject({
      content: [{ type: 'refusal', refusal: 'I cannot grade this.' }],
    })
  })

  it('a hung request ends with the client timeout; a slow one still answers', async () => {
    script.push({ fault: 'hang' }, structuredAnswer({ verdict: 'yes' }, { delayMs: 20 }))
    await expect(
      client.responses.parse({ model: 'm', input: 'x', text: format }, { timeout: 50 }),
    ).rejects.toBeInstanceOf(APIConnectionTimeoutError)
    expect((await parse()).output_parsed).toEqual({ verdict: 'yes' })
  })

  it('an abort ends a hung request', async () => {
    script.push({ fault: 'hang' })
    const controller = new AbortController()
    const pending = client.responses.parse(
      { model: 'm', input: 'x', text: format },
      { signal: controller.signal },
    )
    controller.abort()
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError)
  })

  it('a request past the end of the script gets a 500 naming it', async () => {
    await expect(parse()).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('No scripted reply for request #0 to POST /v1/responses'),
    })
  })
})
