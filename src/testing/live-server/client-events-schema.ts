// Strict zod schemas for every client event the offline server understands, keyed by `type`. Parsed events
// are checked against the openai SDK's `ClientEvent` union at the bottom, so the shapes cannot drift.
import type { ClientEvent } from 'openai/resources/live/live'
import { z } from 'zod'
import { sessionConfigSchema, sessionUpdateConfigSchema } from './session-config-schema.ts'

/** Appends are limited to 500 tokens by the service. */
export const MAX_APPEND_TOKENS = 500

const eventId = z.string().nullable().optional()

const appendFields = {
  event_id: eventId,
  // The key is required even when the value is null (session-wide context).
  delegation_id: z.string().min(1).nullable(),
  content: z.string(),
}

const inputTextContent = z.strictObject({ type: z.literal('input_text'), text: z.string() })
const inputImageContent = z.strictObject({
  type: z.literal('input_image'),
  image_url: z.string().nullable().optional(),
  file_id: z.string().nullable().optional(),
  detail: z.enum(['low', 'high', 'auto', 'original']),
})

// The offline backend continues tool rounds and accepts typed user input; other Responses input items
// (reasoning, computer calls, MCP, ...) are refused as unsupported before this schema runs.
const responseInputItemSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('function_call_output'),
    call_id: z.string().min(1),
    output: z.union([z.string(), z.array(z.union([inputTextContent, inputImageContent]))]),
    id: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    namespace: z.string().nullable().optional(),
    status: z.enum(['in_progress', 'completed', 'incomplete']).nullable().optional(),
  }),
  z.strictObject({
    type: z.literal('message'),
    role: z.enum(['user', 'system', 'developer']),
    content: z.array(z.union([inputTextContent, inputImageContent])).min(1),
    status: z.enum(['in_progress', 'completed', 'incomplete']).optional(),
  }),
])

export const clientEventSchemas = {
  'session.start': z.strictObject({
    type: z.literal('session.start'),
    event_id: eventId,
    session: sessionConfigSchema,
  }),
  'session.update': z.strictObject({
    type: z.literal('session.update'),
    event_id: eventId,
    session: sessionUpdateConfigSchema,
  }),
  'session.input_audio.append': z.strictObject({
    type: z.literal('session.input_audio.append'),
    event_id: eventId,
    audio: z.string(),
  }),
  'session.input_audio.mute': z.strictObject({
    type: z.literal('session.input_audio.mute'),
    event_id: eventId,
  }),
  'session.input_audio.unmute': z.strictObject({
    type: z.literal('session.input_audio.unmute'),
    event_id: eventId,
  }),
  'session.instructions.append': z.strictObject({
    type: z.literal('session.instructions.append'),
    ...appendFields,
  }),
  'session.thinking.append': z.strictObject({ type: z.literal('session.thinking.append'), ...appendFields }),
  'session.commentary.append': z.strictObject({
    type: z.literal('session.commentary.append'),
    ...appendFields,
  }),
  'response.item.create': z.strictObject({
    type: z.literal('response.item.create'),
    event_id: eventId,
    item: responseInputItemSchema,
  }),
  'response.create': z.strictObject({ type: z.literal('response.create'), event_id: eventId }),
  'session.close': z.strictObject({ type: z.literal('session.close'), event_id: eventId }),
} as const

export type SupportedClientEventType = keyof typeof clientEventSchemas
export type ParsedClientEvent = {
  [K in SupportedClientEventType]: z.infer<(typeof clientEventSchemas)[K]>
}[SupportedClientEventType]
export type ParsedClientEventOf<T extends SupportedClientEventType> = z.infer<(typeof clientEventSchemas)[T]>

/** SDK client events that exist but that this server does not implement (Decisions, audio fixtures). */
export const UNSUPPORTED_CLIENT_EVENT_TYPES: ReadonlySet<string> = new Set([
  'session.output_audio.fixture.play',
  'decision.create',
  'decision.item.create',
  'decision.item.delete',
])

// Compile-time proof: every parsed event is a valid SDK `ClientEvent`.
const _eventsMatchSdk = (parsed: ParsedClientEvent): ClientEvent => parsed
void _eventsMatchSdk
