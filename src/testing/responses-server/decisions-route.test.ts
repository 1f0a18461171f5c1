import OpenAI from 'openai'
import type { DecisionCreateParams } from 'openai/resources/decisions'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decisionsRoute, type ScriptedDecision } from './decisions-route.ts'
import type { ScriptedFault } from './faults.ts'
import { inOrder } from './script.ts'
import { type ResponsesServer, startResponsesServer } from './server.ts'

let server: ResponsesServer
let client: OpenAI
let script: (ScriptedDecision | ScriptedFault)[]

beforeEach(async () => {
  script = []
  server = await startResponsesServer({
    routes: { 'POST /v1/decisions': decisionsRoute({ respond: (r, i) => inOrder(script)(r, i) }) },
  })
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
})

afterEach(async () => {
  await server.close()
})

const levels = [{ label: 'low' }, { label: 'mid' }, { label: 'high' }]
const request = (questions: DecisionCreateParams['questions']): DecisionCreateParams => ({
  model: 'gpt-6-luna',
  input: 'The caller booked a table for two.',
  questions,
})

describe('POST /v1/decisions', () => {
  it('answers score, predicate and refusal questions in question order, through the openai client', async () => {
    script.push({
      answers: {
        quality: { type: 'score', probabilities: { mid: 0.25, high: 0.75 } },
        booked: { type: 'predicate', probability: 0.9 },
        '#2': { type: 'refusal' },
      },
    })
    const decision = await client.decisions.create(
      request([
        { type: 'score', name: 'quality', instructions: 'How good?', levels },
        { type: 'predicate', name: 'booked', instructions: 'A table was booked.' },
        { type: 'predicate', instructions: 'Unnamed question.' },
      ]),
    )
    expect(decision.model).toBe('gpt-6-luna')
    expect(decision.answers).toEqual([
      {
        type: 'score',
        name: 'quality',
        score: 1.75,
        confidence: 0.75,
        probabilities: [
          { label: 'low', value: 0, probability: 0 },
          { label: 'mid', value: 1, probability: 0.25 },
          { label: 'high', value: 2, probability: 0.75 },
        ],
      },
      { type: 'predicate', name: 'booked', probability: 0.9 },
      { type: 'refusal', name: null },
    ])
    expect(decision.usage.total_tokens).toBeGreaterThan(0)
    expect(server.requestsTo('POST', '/v1/decisions')[0]?.body).toMatchObject({ model: 'gpt-6-luna' })
  })

  it('refuses unknown fields and repeated question names like the API', async () => {
    const unknown = client.post('/decisions', {
      body: { ...request([{ type: 'predicate', instructions: 'x' }]), store: false },
    })
    await expect(unknown).rejects.toMatchObject({ status: 400, message: expect.stringContaining('store') })
    const repeated = client.decisions.create(
      request([
        { type: 'predicate', name: 'a', instructions: 'x' },
        { type: 'predicate', name: 'a', instructions: 'y' },
      ]),
    )
    await expect(repeated).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('"a" repeats'),
    })
  })

  it('a script that does not fit the questions is a 500 naming the problem', async () => {
    script.push({ answers: { quality: { type: 'score', probabilities: { superb: 1 } } } })
    await expect(
      client.decisions.create(request([{ type: 'score', name: 'quality', instructions: 'x', levels }])),
    ).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('"superb" is not one of its levels'),
    })
  })

  it('answers faults like the responses route', async () => {
    script.push({ fault: 'rate_limited' }, { fault: 'server_error' })
    const question = request([{ type: 'predicate', name: 'p', instructions: 'x' }])
    await expect(client.decisions.create(question)).rejects.toMatchObject({ status: 429 })
    await expect(client.decisions.create(question)).rejects.toMatchObject({ status: 500 })
  })
})
