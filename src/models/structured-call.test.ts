import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { structuredAnswer } from '../testing/responses-server/responses-route.ts'
import { ModelCallError } from './errors.ts'
import { recordingSleep, type ScriptedOpenAi, startScriptedOpenAi } from './models.test-helpers.ts'
import { createRateLimiter } from './rate-limiter.ts'
import { callStructured, type StructuredCallRequest } from './structured-call.ts'

const Verdict = z.strictObject({ done: z.boolean(), reason: z.string().min(1) })

let fake: ScriptedOpenAi
let sleeper: ReturnType<typeof recordingSleep>

beforeEach(async () => {
  fake = await startScriptedOpenAi()
  sleeper = recordingSleep()
})
afterEach(async () => {
  await fake.server.close()
})

function request(
  extra: Partial<StructuredCallRequest<typeof Verdict>> = {},
): StructuredCallRequest<typeof Verdict> {
  return {
    client: fake.client,
    model: 'observer-model',
    source: 'completion_observer',
    purpose: 'completion_observer/turn_3',
    schema: Verdict,
    schemaName: 'completion_verdict',
    input: [
      { role: 'system', content: 'Decide whether the call is over.' },
      { role: 'user', content: 'Caller: thanks, bye.' },
    ],
    reasoningEffort: 'low',
    retry: { sleep: sleeper.sleep },
    ...extra,
  }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error as ModelCallError,
  )

describe('callStructured', () => {
  it('sends one stored-nothing parse request with the schema and effort, and returns the typed value', async () => {
    fake.responses.push(structuredAnswer({ done: true, reason: 'The caller said goodbye.' }))
    const result = await callStructured(request())
    expect(result.value).toEqual({ done: true, reason: 'The caller said goodbye.' })
    const sent = fake.server.requestsTo('POST', '/v1/responses')
    expect(sent).toHaveLength(1)
    expect(sent[0]?.body).toMatchObject({
      model: 'observer-model',
      store: false,
      reasoning: { effort: 'low' },
      text: {
        format: {
          type: 'json_schema',
          name: 'completion_verdict',
          strict: true,
          schema: { required: ['done', 'reason'], additionalProperties: false },
        },
      },
    })
  })

  it('records usage as an event of its own evaluator source, with the tokens the API reported', async () => {
    fake.responses.push(structuredAnswer({ done: false, reason: 'Still talking.' }))
    const { usage } = await callStructured(request())
    expect(usage).toMatchObject({
      source: 'completion_observer',
      purpose: 'completion_observer/turn_3',
      model: 'observer-model',
      cached: false,
      attempts: 1,
      cached_input_tokens: 0,
    })
    expect(usage.total_tokens).toBe((usage.input_tokens ?? 0) + (usage.output_tokens ?? 0))
    expect(usage.total_tokens).toBeGreaterThan(0)
  })

  it('retries a 429 after the server hint and a 500 after the backoff, then succeeds', async () => {
    fake.responses.push(
      { fault: 'rate_limited', retryAfterMs: 1200 },
      { fault: 'server_error' },
      structuredAnswer({ done: true, reason: 'ok' }),
    )
    const result = await callStructured(
      request({ retry: { sleep: sleeper.sleep, maxAttempts: 3, baseDelayMs: 100 } }),
    )
    expect(result.value.done).toBe(true)
    expect(result.usage.attempts).toBe(3)
    expect(sleeper.waits).toEqual([1200, 200])
    expect(fake.server.requestsTo('POST', '/v1/responses')).toHaveLength(3)
  })

  it('gives up after the bounded attempts with the last failure kind and the attempt count', async () => {
    fake.responses.push({ fault: 'server_error' }, { fault: 'server_error' })
    const error = await failure(callStructured(request({ retry: { sleep: sleeper.sleep, maxAttempts: 2 } })))
    expect(error).toBeInstanceOf(ModelCallError)
    expect(error).toMatchObject({ kind: 'server_error', attempts: 2, status: 500 })
    expect(fake.server.requestsTo('POST', '/v1/responses')).toHaveLength(2)
  })

  it('does not retry a refused request (400)', async () => {
    const error = await failure(callStructured(request({ maxOutputTokens: 3 })))
    expect(error).toMatchObject({ kind: 'request_refused', attempts: 1, status: 400 })
    expect(sleeper.waits).toEqual([])
  })

  it('an unparsable, schema-refused or refused answer is "no structured decision" naming model and purpose', async () => {
    fake.responses.push(
      { output: [{ type: 'message', text: '{"done": tru' }] },
      { output: [{ type: 'message', text: '{"done": "yes", "reason": "x"}' }] },
      { output: [{ type: 'refusal', refusal: 'I will not.' }] },
      { output: [], ending: 'incomplete' },
    )
    const reasons = [/did not parse/, /did not parse/, /the model refused: I will not\./, /ended incomplete/]
    for (const reason of reasons) {
      const error = await failure(callStructured(request()))
      expect(error).toMatchObject({ kind: 'no_structured_decision', model: 'observer-model' })
      expect(error.message).toMatch(
        /^no structured decision from observer-model for completion_observer\/turn_3: /,
      )
      expect(error.message).toMatch(reason)
    }
    expect(sleeper.waits).toEqual([])
  })

  it('a body that is not JSON is a malformed response, not retried', async () => {
    fake.responses.push({ fault: 'malformed_json' })
    const error = await failure(callStructured(request()))
    expect(error).toMatchObject({ kind: 'malformed_response', attempts: 1 })
  })

  it('a hung request ends at its timeout, and an aborted one as aborted, neither retried', async () => {
    fake.responses.push({ fault: 'hang' }, { fault: 'hang' })
    const timedOut = await failure(callStructured(request({ timeoutMs: 50 })))
    expect(timedOut).toMatchObject({ kind: 'timeout', attempts: 1 })
    const controller = new AbortController()
    const pending = failure(callStructured(request({ signal: controller.signal })))
    await vi.waitUntil(() => fake.server.requestsTo('POST', '/v1/responses').length === 2)
    controller.abort()
    expect(await pending).toMatchObject({ kind: 'aborted', attempts: 1 })
    expect(fake.server.requestsTo('POST', '/v1/responses')).toHaveLength(2)
  })

  it('a call aborted while it waits for the shared limiter sends nothing and reports aborted', async () => {
    fake.responses.push({ fault: 'hang' })
    const limiter = createRateLimiter({ maxConcurrent: 1 })
    const first = new AbortController()
    const holding = failure(callStructured(request({ limiter, signal: first.signal })))
    await vi.waitUntil(() => fake.server.requestsTo('POST', '/v1/responses').length === 1)
    const second = new AbortController()
    const queued = failure(callStructured(request({ limiter, signal: second.signal })))
    second.abort(new Error('scenario cancelled'))
    expect(await queued).toMatchObject({ kind: 'aborted', attempts: 1 })
    first.abort()
    expect(await holding).toMatchObject({ kind: 'aborted' })
    expect(fake.server.requestsTo('POST', '/v1/responses')).toHaveLength(1)
  })
})
