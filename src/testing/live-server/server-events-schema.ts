// The server events this offline server models, as strict zod schemas keyed by `type`: every event it sends, with
// exactly the fields it sends. It is the server's half of the protocol model (client-events-schema.ts is the
// other): a conformance test holds the server to it, and `live-evals drift` checks what the real service sent
// against it, so an event type or a field the service sends and this server does not is named (protocol drift),
// and the server can be corrected from real traffic. Parsed events are checked against the openai SDK's
// `ServerEvent` union at the bottom, so the model cannot invent a shape the SDK does not have.
//
// Where a value only echoes what the client configured (the session's delegation, input items, client section),
// or is a Responses object the SDK defines at length (a nested response snapshot's items, tools), its inside is
// not modelled field by field: what the service adds there is the client's own configuration or the Responses
// API's, not the GPT-Live protocol.
import type { ServerEvent, SessionResource } from 'openai/resources/live/live'
import type {
  Response,
  ResponseOutputMessage,
  ResponseOutputText,
} from 'openai/resources/responses/responses'
import { z } from 'zod'

const eventId = z.string()
const clientEventId = z.string().optional()
const timed = { start_ms: z.number(), end_ms: z.number() }
/** A JSON object whose inside is not modelled (an echo of the client's configuration, a Responses object). */
const echoed = <T>() =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: 'must be an object',
  })

const sessionResource = z.strictObject({
  id: z.string(),
  expires_at: z.number(),
  model: z.string(),
  status: z.literal('active'),
  instructions: z.string().nullable(),
  audio: z.strictObject({
    format: z.strictObject({
      type: z.literal('audio/pcm'),
      rate: z.union([z.literal(16_000), z.literal(24_000)]),
    }),
    output: z.strictObject({ voice: z.string() }),
  }),
  delegation: echoed<SessionResource['delegation']>(),
  input: z.array(echoed<NonNullable<SessionResource['input']>[number]>()),
  store: z.boolean(),
  client: echoed<NonNullable<SessionResource['client']>>().optional(),
  safety_identifier: z.string().optional(),
})

const usage = z.strictObject({ seconds: z.number() })

const responseUsage = z.strictObject({
  input_tokens: z.number(),
  input_tokens_details: z.strictObject({ cached_tokens: z.number(), cache_write_tokens: z.number() }),
  output_tokens: z.number(),
  output_tokens_details: z.strictObject({ reasoning_tokens: z.number() }),
  total_tokens: z.number(),
})

const responseSnapshot = z.strictObject({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number(),
  status: z.enum(['in_progress', 'completed', 'failed', 'incomplete', 'cancelled', 'queued']),
  access_programs: z.unknown().nullable(),
  error: z.unknown().nullable(),
  incomplete_details: z.unknown().nullable(),
  instructions: z.unknown().nullable(),
  metadata: z.unknown().nullable(),
  model: z.string(),
  output: z.array(echoed<Response['output'][number]>()),
  output_text: z.string(),
  parallel_tool_calls: z.boolean(),
  temperature: z.number().nullable(),
  tool_choice: z.unknown(),
  tools: z.array(echoed<Response['tools'][number]>()),
  top_p: z.number().nullable(),
  usage: responseUsage.optional(),
})

const outputItem = z.discriminatedUnion('type', [
  z.strictObject({
    id: z.string(),
    type: z.literal('function_call'),
    call_id: z.string(),
    name: z.string(),
    arguments: z.string(),
    status: z.enum(['in_progress', 'completed', 'incomplete']),
  }),
  z.strictObject({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    status: z.enum(['in_progress', 'completed', 'incomplete']),
    content: z.array(echoed<ResponseOutputMessage['content'][number]>()),
  }),
])

const sequenced = { sequence_number: z.number() }
const inItem = { ...sequenced, item_id: z.string(), output_index: z.number() }
const inPart = { ...inItem, content_index: z.number() }
const textPart = z.strictObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(echoed<ResponseOutputText['annotations'][number]>()),
})

/** The Responses streaming events this server nests in `response.event` (Responses delegation). */
export const nestedResponseEventSchemas = {
  'response.created': z.strictObject({
    type: z.literal('response.created'),
    ...sequenced,
    response: responseSnapshot,
  }),
  'response.in_progress': z.strictObject({
    type: z.literal('response.in_progress'),
    ...sequenced,
    response: responseSnapshot,
  }),
  'response.completed': z.strictObject({
    type: z.literal('response.completed'),
    ...sequenced,
    response: responseSnapshot,
  }),
  'response.output_item.added': z.strictObject({
    type: z.literal('response.output_item.added'),
    ...sequenced,
    output_index: z.number(),
    item: outputItem,
  }),
  'response.output_item.done': z.strictObject({
    type: z.literal('response.output_item.done'),
    ...sequenced,
    output_index: z.number(),
    item: outputItem,
  }),
  'response.function_call_arguments.delta': z.strictObject({
    type: z.literal('response.function_call_arguments.delta'),
    ...inItem,
    delta: z.string(),
  }),
  'response.function_call_arguments.done': z.strictObject({
    type: z.literal('response.function_call_arguments.done'),
    ...inItem,
    arguments: z.string(),
  }),
  'response.content_part.added': z.strictObject({
    type: z.literal('response.content_part.added'),
    ...inPart,
    part: textPart,
  }),
  'response.content_part.done': z.strictObject({
    type: z.literal('response.content_part.done'),
    ...inPart,
    part: textPart,
  }),
  'response.output_text.delta': z.strictObject({
    type: z.literal('response.output_text.delta'),
    ...inPart,
    delta: z.string(),
    logprobs: z.array(echoed<ResponseOutputText.Logprob>()),
  }),
  'response.output_text.done': z.strictObject({
    type: z.literal('response.output_text.done'),
    ...inPart,
    text: z.string(),
    logprobs: z.array(echoed<ResponseOutputText.Logprob>()),
  }),
} as const

const nestedEvent = z.discriminatedUnion(
  'type',
  Object.values(nestedResponseEventSchemas) as unknown as [
    (typeof nestedResponseEventSchemas)['response.created'],
    ...(typeof nestedResponseEventSchemas)[keyof typeof nestedResponseEventSchemas][],
  ],
)

const acknowledged = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), event_id: eventId, client_event_id: clientEventId })
const appended = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), event_id: eventId, ...timed, client_event_id: clientEventId })
const caption = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), event_id: eventId, delta: z.string(), ...timed })

export const serverEventSchemas = {
  'session.started': z.strictObject({
    type: z.literal('session.started'),
    event_id: eventId,
    client_event_id: clientEventId,
    session: sessionResource,
  }),
  'session.updated': z.strictObject({
    type: z.literal('session.updated'),
    event_id: eventId,
    client_event_id: clientEventId,
    session: sessionResource,
  }),
  'session.closed': z.strictObject({
    type: z.literal('session.closed'),
    event_id: eventId,
    client_event_id: clientEventId,
    reason: z.enum(['close_requested', 'connection_lost', 'content', 'expired', 'remote_hangup']),
    session: sessionResource,
    usage,
  }),
  'session.usage.updated': z.strictObject({
    type: z.literal('session.usage.updated'),
    event_id: eventId,
    usage,
  }),
  error: z.strictObject({
    type: z.literal('error'),
    event_id: eventId,
    client_event_id: clientEventId,
    error: z.strictObject({
      type: z.string(),
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
      client_event_id: clientEventId,
    }),
  }),
  'session.input_audio.muted': acknowledged('session.input_audio.muted'),
  'session.input_audio.unmuted': acknowledged('session.input_audio.unmuted'),
  'session.instructions.appended': appended('session.instructions.appended'),
  'session.thinking.appended': appended('session.thinking.appended'),
  'session.commentary.appended': appended('session.commentary.appended'),
  'session.input_transcript.delta': caption('session.input_transcript.delta'),
  'session.output_transcript.delta': caption('session.output_transcript.delta'),
  // The service stamps no event_id on output audio.
  'session.output_audio.delta': z.strictObject({
    type: z.literal('session.output_audio.delta'),
    delta: z.string(),
  }),
  'session.delegation.created': z.strictObject({
    type: z.literal('session.delegation.created'),
    event_id: eventId,
    offset_ms: z.number(),
    delegation: z.strictObject({
      id: z.string(),
      type: z.literal('delegation'),
      target: z.enum(['client', 'responses']),
      response_id: z.string().optional(),
    }),
  }),
  'response.event': z.strictObject({
    type: z.literal('response.event'),
    event_id: eventId,
    delegation_id: z.string(),
    event: nestedEvent,
  }),
} as const

export type ModelledServerEventType = keyof typeof serverEventSchemas
export type ModelledServerEvent = z.infer<(typeof serverEventSchemas)[ModelledServerEventType]>

/** Whether this server models events of `type`. */
export function isModelledServerEventType(type: string): type is ModelledServerEventType {
  return Object.hasOwn(serverEventSchemas, type)
}

// Compile-time proof: every modelled event is a valid SDK `ServerEvent`.
const _eventsMatchSdk = (parsed: ModelledServerEvent): ServerEvent => parsed
void _eventsMatchSdk
