// Strict zod schemas for every client event the offline server understands, keyed by `type`. Parsed events
// are checked against the openai SDK's `ClientEvent` union at the bottom, so the shapes cannot drift.
import type { ClientEvent } from 'openai/resources/live/live'
import { z } from 'zod'
import { functionCallOutputSchema, messageItemSchema } from './response-items-schema.ts'
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
    // validation.ts has already refused item types that are not these two (itemKind).
    item: z.union([functionCallOutputSchema, messageItemSchema]),
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
