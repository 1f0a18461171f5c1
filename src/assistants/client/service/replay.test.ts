// The service with the OpenAI reference backend against the loopback test Responses server (contract §9, §10
// "Replay"): one application-owned conversation per connection, replayed whole with store:false and never a
// previous_response_id; tool rounds carry reasoning, the call and its output; an optional blank argument is
// dropped before the tool runs. Also: which backend the command picks, and why.
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { responsesRoute, type ScriptedResponse } from '../../../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../../../testing/responses-server/server.ts'
import { openAiRestaurantApplication } from './application.ts'
import { chooseReferenceApplication } from './backend-choice.ts'
import type { ServiceMessage, SessionConfigure } from './protocol/index.ts'
import { liveEvent, type PeerClient, userSaid, useServiceHarness } from './service.test-helpers.ts'

const harness = useServiceHarness()
let responses: ResponsesServer
let script: ScriptedResponse[]

beforeEach(async () => {
  script = []
  responses = await startResponsesServer({
    routes: { 'POST /v1/responses': responsesRoute({ respond: (_request, index) => script[index] }) },
  })
})
afterEach(() => responses.close())

type Body = { input?: Array<{ type?: string; role?: string }>; [key: string]: unknown }
const bodies = () =>
  responses.requestsTo('POST', '/v1/responses').map((request) => (request.body ?? {}) as Body)
const inputTypes = (body: Body | undefined) => (body?.input ?? []).map((item) => item.type)

async function openAiService(configure: Partial<SessionConfigure> = {}) {
  const client = new OpenAI({ apiKey: 'sk-test-backend', baseURL: responses.baseURL, maxRetries: 0 })
  const application = openAiRestaurantApplication({
    client,
    model: 'gpt-backend-test',
    reasoningEffort: 'low',
    maxOutputTokens: 1000,
  })
  const service = await harness.start({ application, acceptScenarioState: true })
  const peer = await harness.connect(service)
  expect(await peer.configure(configure)).toMatchObject({ type: 'session.ready' })
  return peer
}

async function completion(peer: PeerClient): Promise<ServiceMessage[]> {
  const frames: ServiceMessage[] = []
  for (;;) {
    const frame = await peer.next()
    frames.push(frame)
    if (
      frame.type === 'assistant.event' &&
      ['client_delegation.completed', 'error'].includes(frame.event.type)
    )
      return frames
  }
}

describe('the OpenAI reference backend inside the service', () => {
  it('replays the whole owned conversation on a follow-up: message, message, message; store false', async () => {
    script.push(
      { output: [{ type: 'message', text: 'Which day would you like?' }] },
      { output: [{ type: 'message', text: 'Friday it is.' }] },
    )
    const peer = await openAiService()
    peer.send(liveEvent(userSaid('I want a table.', 100, 900)))
    peer.delegate('deleg_1')
    await completion(peer)
    peer.send(liveEvent(userSaid('Friday.', 3_000, 3_500)))
    peer.delegate('deleg_2')
    const second = await completion(peer)
    expect(second.find((frame) => frame.type === 'live.send')).toMatchObject({
      event: { content: 'Friday it is.' },
    })
    const [first, followUp] = bodies()
    expect(inputTypes(first)).toEqual(['message'])
    expect(inputTypes(followUp)).toEqual(['message', 'message', 'message'])
    expect(followUp?.input?.map((item) => item.role)).toEqual(['user', 'assistant', 'user'])
    for (const body of bodies()) {
      expect(body).toMatchObject({
        store: false,
        stream: true,
        model: 'gpt-backend-test',
        parallel_tool_calls: false,
      })
      expect(body.include).toEqual(['reasoning.encrypted_content'])
      expect(body).not.toHaveProperty('previous_response_id')
      expect(String(body.instructions)).toContain('Authorized factual application context')
      expect(String(body.instructions)).not.toContain('availability_overrides')
    }
  })

  it('replays a tool round (message, reasoning, function_call, function_call_output); a blank optional is dropped', async () => {
    script.push(
      {
        output: [
          { type: 'reasoning', summary: ['check the table'] },
          {
            type: 'function_call',
            name: 'check_availability',
            call_id: 'call_1',
            arguments: JSON.stringify({ date: '2026-08-07', time: '19:00', party_size: 4, seating: '' }),
          },
        ],
      },
      { output: [{ type: 'message', text: 'A table for four is free at seven.' }] },
    )
    const peer = await openAiService()
    peer.send(liveEvent(userSaid('Table for 4 on August 7 at 7 p.m.?', 100, 2_000)))
    peer.delegate('deleg_1')
    const frames = await completion(peer)
    const tools = frames.flatMap((frame) =>
      frame.type === 'assistant.event' && frame.event.type.startsWith('tool.') ? [frame.event] : [],
    )
    expect(tools.map((event) => event.type)).toEqual(['tool.called', 'tool.completed'])
    expect(tools[1]).toMatchObject({
      call_id: 'call_1',
      tool_execution: { name: 'check_availability', status: 'completed', arguments: { party_size: 4 } },
      application_state: {},
    })
    expect(tools[1]?.tool_execution).not.toHaveProperty('arguments.seating')
    expect(inputTypes(bodies()[1])).toEqual(['message', 'reasoning', 'function_call', 'function_call_output'])
    const observed = frames
      .filter((frame) => frame.type === 'assistant.event')
      .map((frame) => JSON.stringify(frame))
    expect(observed.join('\n')).not.toContain('encrypted_content')
  })

  it('states the accepted starting state and summary in the backend prompt, and nothing else from the configure', async () => {
    script.push({ output: [{ type: 'message', text: 'Noted.' }] })
    const peer = await openAiService({
      application_state: { authorized_reservation_ids: ['R-100'] },
      conversation_summary: 'The caller is Ibrahim.',
      instructions: 'IGNORE_ME_instructions',
      model: 'IGNORE_ME_model',
    })
    peer.delegate('deleg_1')
    await completion(peer)
    const [body] = bodies()
    expect(String(body?.instructions)).toContain(
      '"authorized_application_state": {"authorized_reservation_ids": ["R-100"]}',
    )
    expect(String(body?.instructions)).toContain('"previous_conversation_summary": "The caller is Ibrahim."')
    expect(JSON.stringify(body)).not.toContain('IGNORE_ME')
  })
})

describe('choosing the reference backend', () => {
  it('is offline when asked, and says so', () => {
    const choice = chooseReferenceApplication({ offline: true, env: { OPENAI_API_KEY: 'sk-x' } })
    expect(choice.kind).toBe('offline')
    expect(choice.description).toBe(
      'backend: offline (the deterministic restaurant backend), because --offline was given',
    )
  })

  it('is offline when no OpenAI key is set, naming both variables', () => {
    const choice = chooseReferenceApplication({ offline: false, env: { OPENAI_API_KEY: '  ' } })
    expect(choice.kind).toBe('offline')
    expect(choice.description).toContain('neither OPENAI_RESPONSES_API_KEY nor OPENAI_API_KEY is set')
  })

  it('is the OpenAI backend with a key, naming the variable and model but never the key', () => {
    const env = {
      OPENAI_RESPONSES_API_KEY: 'sk-responses-secret',
      OPENAI_LIVE_BACKEND_MODEL: 'gpt-backend-x',
    }
    const choice = chooseReferenceApplication({ offline: false, env, baseURL: responses.baseURL })
    expect(choice.kind).toBe('openai')
    expect(choice.description).toContain('OPENAI_RESPONSES_API_KEY is set')
    expect(choice.description).toContain('gpt-backend-x')
    expect(choice.description).not.toContain('sk-responses-secret')
  })

  it.each([
    [
      { OPENAI_LIVE_BACKEND_REASONING_EFFORT: 'extreme' },
      'OPENAI_LIVE_BACKEND_REASONING_EFFORT must be one of',
    ],
    [
      { OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS: '8' },
      'OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS must be a whole number',
    ],
    [
      { OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS: '1e3' },
      'OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS must be a whole number',
    ],
  ])('refuses bad backend settings %j', (settings, message) => {
    expect(() =>
      chooseReferenceApplication({ offline: false, env: { OPENAI_API_KEY: 'sk-x', ...settings } }),
    ).toThrow(message)
  })
})
