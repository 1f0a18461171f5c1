// The nested Responses streaming events the service wraps in `response.event` under Responses delegation.
// Built from the openai SDK's Responses types. Lifecycle snapshots are trimmed the way the service trims
// them: `output: []` (even with a pending function call), `tools: []`, `instructions: null`, no input; the
// function call appears only as an item event, and usage only in the terminal `response.completed`. The
// snapshots are the SDK's whole `Response` type, `output_text` included: it aggregates the text of `output`,
// which the trimmed snapshot empties, so it is '' (the answer's text travels in the output_text events).
import type { Response, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses'
import { usageForCharacters } from '../estimated-usage.ts'

export type NestedResponseEvent = ResponseStreamEvent

export interface BackendResponseContext {
  responseId: string
  model: string
  /** Unix seconds; fixed per session so that snapshots are reproducible. */
  createdAt: number
  parallelToolCalls: boolean
  /** Characters the backend read (instructions, caller words, tool results): only used to estimate usage. */
  inputChars: number
}

function snapshot(
  context: BackendResponseContext,
  status: 'in_progress' | 'completed' | 'failed',
  usage?: ResponseUsage,
) {
  const response: Response = {
    id: context.responseId,
    object: 'response',
    created_at: context.createdAt,
    status,
    access_programs: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    model: context.model,
    output: [],
    output_text: '',
    parallel_tool_calls: context.parallelToolCalls,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
  }
  return usage === undefined ? response : { ...response, usage }
}

function usageFor(context: BackendResponseContext, outputText: string): ResponseUsage {
  return usageForCharacters(context.inputChars, outputText.length)
}

/** A backend response that ends in one completed function call. */
export function functionCallResponse(
  context: BackendResponseContext,
  call: { itemId: string; callId: string; name: string; arguments: string },
): NestedResponseEvent[] {
  let sequence = 0
  const base = { id: call.itemId, type: 'function_call' as const, call_id: call.callId, name: call.name }
  return [
    { type: 'response.created', sequence_number: sequence++, response: snapshot(context, 'in_progress') },
    { type: 'response.in_progress', sequence_number: sequence++, response: snapshot(context, 'in_progress') },
    {
      type: 'response.output_item.added',
      sequence_number: sequence++,
      output_index: 0,
      item: { ...base, arguments: '', status: 'in_progress' },
    },
    {
      type: 'response.function_call_arguments.delta',
      sequence_number: sequence++,
      item_id: call.itemId,
      output_index: 0,
      delta: call.arguments,
    },
    {
      type: 'response.function_call_arguments.done',
      sequence_number: sequence++,
      item_id: call.itemId,
      output_index: 0,
      arguments: call.arguments,
    },
    {
      type: 'response.output_item.done',
      sequence_number: sequence++,
      output_index: 0,
      item: { ...base, arguments: call.arguments, status: 'completed' },
    },
    {
      type: 'response.completed',
      sequence_number: sequence++,
      response: snapshot(context, 'completed', usageFor(context, call.name + call.arguments)),
    },
  ]
}

/** A backend response that ends in one assistant message, streamed word by word. */
export function messageResponse(
  context: BackendResponseContext,
  itemId: string,
  text: string,
): NestedResponseEvent[] {
  let sequence = 0
  const where = { item_id: itemId, output_index: 0, content_index: 0 }
  const events: NestedResponseEvent[] = [
    { type: 'response.created', sequence_number: sequence++, response: snapshot(context, 'in_progress') },
    { type: 'response.in_progress', sequence_number: sequence++, response: snapshot(context, 'in_progress') },
    {
      type: 'response.output_item.added',
      sequence_number: sequence++,
      output_index: 0,
      item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    },
    {
      type: 'response.content_part.added',
      sequence_number: sequence++,
      ...where,
      part: { type: 'output_text', text: '', annotations: [] },
    },
  ]
  for (const delta of text.match(/\s*\S+/g) ?? []) {
    events.push({
      type: 'response.output_text.delta',
      sequence_number: sequence++,
      ...where,
      delta,
      logprobs: [],
    })
  }
  const part = { type: 'output_text' as const, text, annotations: [] }
  events.push(
    { type: 'response.output_text.done', sequence_number: sequence++, ...where, text, logprobs: [] },
    { type: 'response.content_part.done', sequence_number: sequence++, ...where, part },
    {
      type: 'response.output_item.done',
      sequence_number: sequence++,
      output_index: 0,
      item: { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [part] },
    },
    {
      type: 'response.completed',
      sequence_number: sequence++,
      response: snapshot(context, 'completed', usageFor(context, text)),
    },
  )
  return events
}

/**
 * A backend response that fails before producing anything, as a backend model the service cannot reach would:
 * created, in progress, then `response.failed` with a server error (a fault profile's backend_error).
 */
export function failedResponse(context: BackendResponseContext): NestedResponseEvent[] {
  let sequence = 0
  return [
    { type: 'response.created', sequence_number: sequence++, response: snapshot(context, 'in_progress') },
    { type: 'response.in_progress', sequence_number: sequence++, response: snapshot(context, 'in_progress') },
    {
      type: 'response.failed',
      sequence_number: sequence++,
      response: {
        ...snapshot(context, 'failed', usageFor(context, '')),
        error: { code: 'server_error', message: 'The server had an error while processing your request.' },
      },
    },
  ]
}
