import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { responsesRoute, type ScriptedResponse } from '../../../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../../../testing/responses-server/server.ts'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import { restaurantToolDefinitions } from '../tools/resources.ts'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import { DELEGATED_TASK, type DelegationHandoff, type ObservationEvent } from './application-backend.ts'
import { MAX_TOOL_ROUNDS, OpenAiReferenceBackend } from './openai-backend.ts'
import { backendApiKey } from './openai-client.ts'
import { runtimeToolCallback } from './tool-callback.ts'

let server: ResponsesServer
let script: Array<ScriptedResponse | ((index: number) => ScriptedResponse)>
let runtime: ToolRuntime
let backend: OpenAiReferenceBackend
let observed: ObservationEvent[]

const availability = (
  args: Record<string, unknown>,
  callId = 'call_1',
): ScriptedResponse['output'][number] => ({
  type: 'function_call',
  name: 'check_availability',
  call_id: callId,
  arguments: JSON.stringify(args),
})
const table = { date: '2026-08-07', time: '19:00', party_size: 4 }
const handoff = (text: string, followUp = false): DelegationHandoff => ({
  task: DELEGATED_TASK,
  follow_up: followUp,
  transcript_srt: `1\n00:00:00,600 --> 00:00:01,900\nUSER: ${text}`,
})
type Body = Record<string, unknown>
type InputItem = { type?: string; call_id?: string; output?: string; content?: Array<{ text: string }> }
const requests = () =>
  server.requestsTo('POST', '/v1/responses').map((request) => (request.body ?? {}) as Body)
const inputOf = (body: Body | undefined) => (body?.input ?? []) as InputItem[]
const inputTypes = (body: Body | undefined) => inputOf(body).map((item) => item.type)
const emit = (event: ObservationEvent) => observed.push(event)

beforeEach(async () => {
  script = []
  observed = []
  server = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({
        respond: (_request, index) => {
          const next = script[index] ?? script.at(-1)
          if (next === undefined) throw new Error(`no scripted response for request ${index}`)
          return typeof next === 'function' ? next(index) : next
        },
      }),
    },
  })
  runtime = new ToolRuntime(new RestaurantTools())
  backend = new OpenAiReferenceBackend({
    client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 }),
    model: 'gpt-backend-test',
    instructions: 'You are the back office.',
    tools: restaurantToolDefinitions(),
    reasoningEffort: 'low',
    maxOutputTokens: 1000,
    callTool: runtimeToolCallback(runtime),
  })
})

afterEach(async () => {
  await backend.close()
  await server.close()
})

describe('the OpenAI reference backend', () => {
  it('runs a tool round, then answers; the replay grows with the output and the function_call_output', async () => {
    script.push(
      { output: [{ type: 'reasoning', summary: ['check it'] }, availability(table)] },
      { output: [{ type: 'message', text: 'A table for four is free at seven.' }] },
    )
    const answer = await backend.run(handoff('Is there a table for 4 on August 7 at 7 p.m.?'), emit)
    expect(answer).toBe('A table for four is free at seven.')
    const [first, second] = requests()
    expect(inputTypes(first)).toEqual(['message'])
    expect(inputTypes(second)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output'])
    const output = inputOf(second)[3]
    expect(output).toMatchObject({ type: 'function_call_output', call_id: 'call_1' })
    expect(JSON.parse(String(output?.output))).toEqual({ ok: true, available: true, ...table })
    expect(runtime.executions()).toEqual([
      expect.objectContaining({ call_id: 'call_1', status: 'completed' }),
    ])
  })

  it('sends the whole request with store false, encrypted reasoning, no previous_response_id, streaming', async () => {
    script.push({ output: [{ type: 'message', text: 'Hello.' }] })
    await backend.run(handoff('Hi'), emit)
    const [body] = requests()
    expect(body).toMatchObject({
      model: 'gpt-backend-test',
      instructions: 'You are the back office.',
      parallel_tool_calls: false,
      reasoning: { effort: 'low' },
      max_output_tokens: 1000,
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
    })
    expect(body).not.toHaveProperty('previous_response_id')
    expect(((body?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name)).toEqual([
      'check_availability',
      'create_reservation',
      'cancel_reservation',
    ])
    const prompt = (inputOf(body)[0]?.content?.[0]?.text ?? '').split('\n')
    expect(prompt[0]).toBe('Voice conversation so far, rendered as timestamped SRT:')
    expect(prompt.at(-1)).toBe(DELEGATED_TASK)
  })

  it('replays the owned history on a follow-up: message, message, message', async () => {
    script.push(
      { output: [{ type: 'message', text: 'Which day?' }] },
      { output: [{ type: 'message', text: 'Booked.' }] },
    )
    await backend.run(handoff('Book a table'), emit)
    await backend.run(handoff('Friday', true), emit)
    const [, second] = requests()
    expect(inputTypes(second)).toEqual(['message', 'message', 'message'])
    const followUpPrompt = inputOf(second)[2]?.content?.[0]?.text
    expect(followUpPrompt).toMatch(/^Voice conversation since the previous delegation/)
  })

  it('serializes concurrent runs so the second replays the first', async () => {
    script.push(
      { output: [{ type: 'message', text: 'One.' }] },
      { output: [{ type: 'message', text: 'Two.' }] },
    )
    const answers = await Promise.all([
      backend.run(handoff('a'), emit),
      backend.run(handoff('b', true), emit),
    ])
    expect(answers).toEqual(['One.', 'Two.'])
    expect(inputTypes(requests()[1])).toEqual(['message', 'message', 'message'])
  })

  it('rejects a reasoning item that comes back without encrypted_content, keeping the history replayable', async () => {
    script.push({
      output: [
        { type: 'reasoning', encrypted_content: null },
        { type: 'message', text: 'x' },
      ],
    })
    await expect(backend.run(handoff('Hi'), emit)).rejects.toThrow(
      'OpenAI Responses replay requires encrypted reasoning',
    )
    expect(backend.items.map((item) => item.type)).toEqual(['message'])
  })

  it('gives up after 8 tool rounds', async () => {
    // The limit is the reference's 8, written out: a test in terms of the constant would follow any change.
    expect(MAX_TOOL_ROUNDS).toBe(8)
    script.push((index) => ({ output: [availability(table, `call_${index}`)] }))
    await expect(backend.run(handoff('Loop'), emit)).rejects.toThrow('exceeded 8 tool rounds')
    expect(requests()).toHaveLength(8)
    expect(runtime.executions()).toHaveLength(8)
    expect(observed.filter((event) => event.type === 'client_delegation.context.assembled')).toHaveLength(8)
  })

  it('answers on the 8th round: the limit counts requests, not one more', async () => {
    script.push((index) =>
      index < 7
        ? { output: [availability(table, `call_${index}`)] }
        : { output: [{ type: 'message', text: 'Finally free.' }] },
    )
    await expect(backend.run(handoff('Nearly a loop'), emit)).resolves.toBe('Finally free.')
    expect(requests()).toHaveLength(8)
  })

  it('runs a call with a blank optional argument once without it, emitting tool.called then tool.completed', async () => {
    script.push(
      { output: [availability({ ...table, seating: '' })] },
      { output: [{ type: 'message', text: 'Free.' }] },
    )
    await backend.run(handoff('Table?'), emit)
    expect(runtime.executions()).toEqual([expect.objectContaining({ arguments: table })])
    const toolEvents = observed.filter((event) => event.type.startsWith('tool.'))
    expect(toolEvents.map((event) => event.type)).toEqual(['tool.called', 'tool.completed'])
    expect(toolEvents[0]).toMatchObject({ call_id: 'call_1', arguments: table })
  })

  it('drops explicitly null arguments before the call is published or run', async () => {
    script.push(
      { output: [availability({ ...table, seating: null })] },
      { output: [{ type: 'message', text: 'Free.' }] },
    )
    await backend.run(handoff('Table?'), emit)
    // tool.called shows what the backend passed to the application: the null is gone there already.
    const called = observed.find((event) => event.type === 'tool.called')
    expect(called?.arguments).toEqual(table)
    expect(runtime.executions()).toEqual([expect.objectContaining({ arguments: table })])
  })

  it('runs the calls of one response one after another, in order', async () => {
    const order: string[] = []
    const sequential = new OpenAiReferenceBackend({
      client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 }),
      model: 'm',
      instructions: 'i',
      tools: restaurantToolDefinitions(),
      reasoningEffort: null,
      maxOutputTokens: null,
      callTool: async (_name, _args, callId) => {
        order.push(`start ${callId}`)
        await new Promise((resolve) => setImmediate(resolve))
        order.push(`end ${callId}`)
        return { ok: true }
      },
    })
    script.push(
      { output: [availability(table, 'call_a'), availability(table, 'call_b')] },
      { output: [{ type: 'message', text: 'Both done.' }] },
    )
    await sequential.run(handoff('Two tables'), emit)
    expect(order).toEqual(['start call_a', 'end call_a', 'start call_b', 'end call_b'])
    expect(inputTypes(requests()[1])).toEqual([
      'message',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
    ])
  })

  it('refuses a call_id that already completed, and arguments that are not an object', async () => {
    script.push(
      { output: [availability(table, 'call_same')] },
      { output: [availability(table, 'call_same')] },
    )
    await expect(backend.run(handoff('Twice'), emit)).rejects.toThrow('already completed call_id call_same')
    expect(runtime.executions()).toHaveLength(1)

    script.length = 0
    script.push({
      output: [{ type: 'function_call', name: 'check_availability', call_id: 'c9', arguments: '[1]' }],
    })
    await expect(backend.run(handoff('Array'), emit)).rejects.toThrow('must be a JSON object')
  })

  it('publishes stream events trimmed: response reduced to id/status/model/usage/error, no encrypted reasoning', async () => {
    script.push({ output: [{ type: 'reasoning' }, { type: 'message', text: 'Ok.' }] })
    await backend.run(handoff('Hi'), emit)
    const completed = observed.find((event) => event.type === 'response.completed')
    expect(Object.keys(completed?.response as object).sort()).toEqual([
      'error',
      'id',
      'model',
      'status',
      'usage',
    ])
    expect(JSON.stringify(observed)).not.toContain('encrypted_content')
    expect(JSON.stringify(observed)).not.toContain('You are the back office.')
    expect(observed[0]).toEqual({ type: 'client_delegation.context.assembled', round: 1, input_items: 1 })
  })

  it('raises for a failed, incomplete, erroring or unfinished stream and for a blank answer', async () => {
    const endings = ['failed', 'incomplete', 'error_event', 'cut_short'] as const
    for (const ending of endings) {
      script.length = 0
      script.push({ output: [], ending })
      // The SDK itself raises an `error` event as an APIError; the others are ours.
      await expect(backend.run(handoff(ending), emit)).rejects.toThrow(
        /OpenAI Responses|scripted stream failed/,
      )
    }
    script.length = 0
    script.push({ output: [{ type: 'message', text: '  ' }] })
    await expect(backend.run(handoff('blank'), emit)).rejects.toThrow('no output text')
  })

  it('takes its key from OPENAI_RESPONSES_API_KEY, else OPENAI_API_KEY, else says how to proceed', () => {
    expect(backendApiKey({ OPENAI_RESPONSES_API_KEY: 'a', OPENAI_API_KEY: 'b' })).toBe('a')
    expect(backendApiKey({ OPENAI_API_KEY: 'b' })).toBe('b')
    expect(() => backendApiKey({})).toThrow(/OPENAI_RESPONSES_API_KEY or OPENAI_API_KEY/)
  })
})
