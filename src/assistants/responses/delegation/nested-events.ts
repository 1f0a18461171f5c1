// The few nested Responses streaming events the controller acts on, read out of `response.event` envelopes.
// The SDK types the envelope's `event` as an open object (new event types will appear), so we check the parts
// we rely on with zod and ignore the rest. Field names follow the SDK's Responses types.
import { z } from 'zod'

/** A function call as the backend reports it in `response.output_item.done`. */
export const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  id: z.string().optional(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  /** Only `completed` runs a tool; a missing status or any other value runs nothing. */
  status: z.string().optional(),
})
export type FunctionCallItem = z.infer<typeof functionCallItemSchema>

/** Backend token usage; present only in terminal lifecycle events. */
export const backendUsageSchema = z.looseObject({
  input_tokens: z.number(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number() }).optional(),
  output_tokens: z.number(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number() }).optional(),
  total_tokens: z.number(),
})
export type BackendUsage = z.infer<typeof backendUsageSchema>

export const TERMINAL_RESPONSE_EVENTS = [
  'response.completed',
  'response.failed',
  'response.incomplete',
  'response.cancelled',
] as const
export type TerminalResponseEventType = (typeof TERMINAL_RESPONSE_EVENTS)[number]

const lifecycleEventSchema = z.looseObject({
  type: z.enum(['response.created', ...TERMINAL_RESPONSE_EVENTS]),
  response: z.looseObject({
    id: z.string().min(1),
    status: z.string().nullish(),
    usage: backendUsageSchema.nullish(),
  }),
})

const outputItemDoneSchema = z.looseObject({
  type: z.literal('response.output_item.done'),
  item: z.looseObject({ type: z.string() }),
})

/** What one nested event means to the controller. */
export type NestedObservation =
  | { kind: 'created'; responseId: string }
  | { kind: 'terminal'; type: TerminalResponseEventType; responseId: string; usage: BackendUsage | null }
  | { kind: 'function_call'; item: FunctionCallItem }
  /** A function_call item we cannot act on (missing call_id, name or arguments); kept as evidence. */
  | { kind: 'malformed_function_call'; item: Record<string, unknown> }
  | { kind: 'arguments_done' }
  /** A finished assistant message of the backend: what it hands the voice model to say (its output text). */
  | { kind: 'message'; text: string }
  | { kind: 'other' }

export function observeNestedEvent(event: Record<string, unknown>): NestedObservation {
  if (event.type === 'response.output_item.done') {
    const done = outputItemDoneSchema.safeParse(event)
    if (done.success && done.data.item.type === 'message') return messageOf(done.data.item)
    if (!done.success || done.data.item.type !== 'function_call') return { kind: 'other' }
    const call = functionCallItemSchema.safeParse(done.data.item)
    return call.success
      ? { kind: 'function_call', item: call.data }
      : { kind: 'malformed_function_call', item: done.data.item }
  }
  if (event.type === 'response.function_call_arguments.done') return { kind: 'arguments_done' }
  const lifecycle = lifecycleEventSchema.safeParse(event)
  if (!lifecycle.success) return { kind: 'other' }
  const { response } = lifecycle.data
  if (lifecycle.data.type === 'response.created') return { kind: 'created', responseId: response.id }
  return {
    kind: 'terminal',
    type: lifecycle.data.type,
    responseId: response.id,
    usage: response.usage ?? null,
  }
}

const messageItemSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
})

/** The output text of a message item; an item without text is nothing to report. */
function messageOf(item: Record<string, unknown>): NestedObservation {
  const message = messageItemSchema.safeParse(item)
  if (!message.success) return { kind: 'other' }
  const text = message.data.content
    .flatMap((part) => (part.type === 'output_text' && part.text !== undefined ? [part.text] : []))
    .join('')
    .trim()
  return text === '' ? { kind: 'other' } : { kind: 'message', text }
}
