// `POST /v1/responses` for the test OpenAI server: validates the request like the API (known fields only),
// then answers with a response the test scripts, either as one JSON body or, with `stream: true`, as
// server-sent events in the order the API sends them (created, in_progress, per item added → deltas →
// done, then completed/failed/incomplete). Reasoning items carry `encrypted_content` only when the request
// asked for it with `include: ["reasoning.encrypted_content"]`, as the API does. A script may instead answer with
// a fault (faults.ts), delay its reply, or answer a structured call (`responses.parse`) with structuredAnswer().
import type { ServerResponse } from 'node:http'
import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses'
import { z } from 'zod'
import { estimatedUsage } from '../estimated-usage.ts'
import { delayReply, faultReply, isScriptedFault, type ScriptedFault, unscriptedReply } from './faults.ts'
import { invalidRequest, openAiError, type RouteHandler } from './routes.ts'

// The request fields the API accepts that the harness may send; anything else is refused like the API does.
const ResponsesRequest = z.strictObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]).optional(),
  instructions: z.string().nullable().optional(),
  tools: z.array(z.record(z.string(), z.unknown())).optional(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  reasoning: z.record(z.string(), z.unknown()).nullable().optional(),
  max_output_tokens: z.number().int().min(16).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.record(z.string(), z.unknown()).nullable().optional(),
  store: z.boolean().nullable().optional(),
  include: z.array(z.string()).nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  text: z.record(z.string(), z.unknown()).optional(),
  temperature: z.number().nullable().optional(),
  top_p: z.number().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  service_tier: z.string().nullable().optional(),
  truncation: z.string().nullable().optional(),
  prompt_cache_key: z.string().optional(),
  safety_identifier: z.string().optional(),
  user: z.string().optional(),
})
export type ResponsesRequest = z.infer<typeof ResponsesRequest>

/** One output item a scripted response produces. */
export type ScriptedOutputItem =
  | { type: 'message'; text: string }
  /** A message whose only content is a refusal, as the API sends when the model declines. */
  | { type: 'refusal'; refusal: string }
  | { type: 'function_call'; name: string; arguments: string; call_id?: string }
  /** `encrypted_content: null` simulates a reasoning item that comes back without it even when requested. */
  | { type: 'reasoning'; summary?: string[]; encrypted_content?: string | null }

export interface ScriptedResponse {
  output: ScriptedOutputItem[]
  /** How the response ends: `completed` (default), `failed`, `incomplete`, an `error` event, or a stream cut short. */
  ending?: 'completed' | 'failed' | 'incomplete' | 'error_event' | 'cut_short'
  /** Wait this long before answering (a slow model). */
  delayMs?: number
}

export interface ResponsesRouteOptions {
  /**
   * The reply to a validated request; `index` counts this route's valid requests from 0. Undefined (nothing
   * scripted) answers a 500 naming the request.
   */
  respond: (
    request: ResponsesRequest,
    index: number,
  ) => ScriptedResponse | ScriptedFault | undefined | Promise<ScriptedResponse | ScriptedFault | undefined>
}

/** A completed response whose output text is `value` as JSON: what `responses.parse` reads as the parsed answer. */
export function structuredAnswer(
  value: unknown,
  extra: Omit<ScriptedResponse, 'output'> = {},
): ScriptedResponse {
  return { ...extra, output: [{ type: 'message', text: JSON.stringify(value) }] }
}

export function responsesRoute(options: ResponsesRouteOptions): RouteHandler {
  let index = 0
  const hex = idCounter()
  return async (request, response) => {
    const parsed = ResponsesRequest.safeParse(request.body)
    if (!parsed.success) return invalidRequest('responses request', parsed.error)
    const number = index++
    const scripted = await options.respond(parsed.data, number)
    if (scripted === undefined) return unscriptedReply('POST /v1/responses', number)
    if (isScriptedFault(scripted)) return faultReply(scripted, response)
    if (!(await delayReply(scripted.delayMs, response))) return undefined
    const built = buildResponse(parsed.data, scripted, hex)
    if (parsed.data.stream !== true) {
      if (scripted.ending === 'error_event' || scripted.ending === 'cut_short') {
        return openAiError(500, 'The scripted response failed.', { type: 'server_error' })
      }
      return { status: 200, body: built.final }
    }
    writeEventStream(response, streamEvents(built, scripted.ending ?? 'completed'))
    return undefined
  }
}

type WireResponse = Omit<Response, 'output_text'>

interface BuiltResponse {
  final: WireResponse
  items: ResponseOutputItem[]
}

function buildResponse(
  request: ResponsesRequest,
  scripted: ScriptedResponse,
  hex: () => string,
): BuiltResponse {
  const withEncrypted = request.include?.includes('reasoning.encrypted_content') ?? false
  const items = scripted.output.map((item) => outputItem(item, withEncrypted, hex))
  const outputText = scripted.output.map((item) => (item.type === 'message' ? item.text : '')).join('')
  const ending = scripted.ending ?? 'completed'
  const status = ending === 'failed' ? 'failed' : ending === 'incomplete' ? 'incomplete' : 'completed'
  const final: WireResponse = {
    id: `resp_${hex()}`,
    object: 'response',
    access_programs: null,
    created_at: 1_780_000_000,
    status,
    error: status === 'failed' ? { code: 'server_error', message: 'The scripted response failed.' } : null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    metadata: null,
    model: request.model,
    output: items,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    usage: estimatedUsage(JSON.stringify(request.input ?? ''), outputText),
  }
  return { final, items }
}

function outputItem(item: ScriptedOutputItem, withEncrypted: boolean, hex: () => string): ResponseOutputItem {
  switch (item.type) {
    case 'message':
      return {
        id: `msg_${hex()}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      }
    case 'refusal':
      return {
        id: `msg_${hex()}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal: item.refusal }],
      }
    case 'function_call':
      return {
        id: `fc_${hex()}`,
        type: 'function_call',
        call_id: item.call_id ?? `call_${hex()}`,
        name: item.name,
        arguments: item.arguments,
        status: 'completed',
      }
    case 'reasoning': {
      const summary = (item.summary ?? []).map((text) => ({ type: 'summary_text' as const, text }))
      const encrypted = item.encrypted_content === undefined ? `enc_${hex()}` : item.encrypted_content
      return {
        id: `rs_${hex()}`,
        type: 'reasoning',
        summary,
        ...(withEncrypted && encrypted !== null ? { encrypted_content: encrypted } : {}),
      }
    }
  }
}

type WireEvent = Record<string, unknown> & { type: ResponseStreamEvent['type'] }

function streamEvents(built: BuiltResponse, ending: NonNullable<ScriptedResponse['ending']>): WireEvent[] {
  const events: WireEvent[] = []
  const inProgress = {
    ...built.final,
    status: 'in_progress',
    output: [],
    usage: null,
    error: null,
    incomplete_details: null,
  }
  events.push(
    { type: 'response.created', response: inProgress },
    { type: 'response.in_progress', response: inProgress },
  )
  built.items.forEach((item, output_index) => {
    events.push({ type: 'response.output_item.added', output_index, item: startedItem(item) })
    // Refusal messages are streamed as their added/done items only; the harness never streams one.
    const part = item.type === 'message' ? item.content[0] : undefined
    if (part?.type === 'output_text') {
      const where = { item_id: item.id, output_index, content_index: 0 }
      const { text } = part
      events.push({
        type: 'response.content_part.added',
        ...where,
        part: { type: 'output_text', text: '', annotations: [] },
      })
      for (const delta of text.match(/\s*\S+/g) ?? [])
        events.push({ type: 'response.output_text.delta', ...where, delta, logprobs: [] })
      events.push(
        { type: 'response.output_text.done', ...where, text, logprobs: [] },
        { type: 'response.content_part.done', ...where, part },
      )
    } else if (item.type === 'function_call') {
      const where = { item_id: item.id, output_index }
      events.push(
        { type: 'response.function_call_arguments.delta', ...where, delta: item.arguments },
        { type: 'response.function_call_arguments.done', ...where, arguments: item.arguments },
      )
    }
    events.push({ type: 'response.output_item.done', output_index, item })
  })
  if (ending === 'cut_short') return numbered(events)
  if (ending === 'error_event') {
    events.push({ type: 'error', code: 'server_error', message: 'The scripted stream failed.', param: null })
  } else {
    events.push({ type: `response.${ending}`, response: built.final } as WireEvent)
  }
  return numbered(events)
}

/** The `added` form of an item: still in progress, with nothing produced yet. */
function startedItem(item: ResponseOutputItem): ResponseOutputItem {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] }
  if (item.type === 'function_call') return { ...item, status: 'in_progress', arguments: '' }
  return item
}

function numbered(events: WireEvent[]): WireEvent[] {
  return events.map((event, sequence_number) => ({ ...event, sequence_number }))
}

function writeEventStream(response: ServerResponse, events: WireEvent[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const event of events) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  response.end()
}

/** Ids are counted per route, not random, so the same requests always get the same bytes back. */
function idCounter(): () => string {
  let count = 0
  return () => {
    count += 1
    return count.toString(16).padStart(24, '0')
  }
}
