// The GPT-Live events that cross from the evaluator to a client-delegation service (`live.event`). The
// connector is fed every Live event but forwards only these four types; everything else (audio, turns,
// acknowledgements) stays in the evaluator. Both sides validate a forwarded event with the same schemas, so
// a service never acts on a delegation it could not answer or a transcript whose timing it cannot place.
import { z } from 'zod'

export const FORWARDED_LIVE_EVENT_TYPES = [
  'session.input_transcript.delta',
  'session.output_transcript.delta',
  'session.delegation.created',
  'session.closed',
] as const
export type ForwardedLiveEventType = (typeof FORWARDED_LIVE_EVENT_TYPES)[number]

/** True for the event types a connector forwards (the filter it applies before validating). */
export function isForwardedLiveEventType(type: unknown): type is ForwardedLiveEventType {
  return (FORWARDED_LIVE_EVENT_TYPES as readonly unknown[]).includes(type)
}

/** Longest delegation id a service accepts (ids are echoed in every frame of the delegation). */
export const MAX_DELEGATION_ID_LENGTH = 256

/** A position on the Live timeline: a non-negative whole number of ms (z.number refuses booleans). */
const timelineMs = z.number().int().nonnegative()
const timing = { start_ms: timelineMs.optional(), end_ms: timelineMs.optional() }

const transcriptDeltaSchema = z
  .looseObject({
    type: z.enum(['session.input_transcript.delta', 'session.output_transcript.delta']),
    item: z.looseObject({ id: z.string().optional(), text: z.string().optional() }).optional(),
    item_id: z.string().optional(),
    delta: z.string().optional(),
    text: z.string().optional(),
    ...timing,
  })
  .refine(
    (event) =>
      Boolean(event.item_id || event.item?.id) ||
      (event.start_ms !== undefined && event.end_ms !== undefined),
    // The service's memory places an id-less fragment by its timing alone.
    { message: 'a transcript delta without an item id needs start_ms and end_ms', path: ['start_ms'] },
  )

const clientDelegationCreatedSchema = z.looseObject({
  type: z.literal('session.delegation.created'),
  delegation: z.looseObject({
    // Another target is an error, not something to ignore: the connector only forwards client delegations.
    target: z.literal('client'),
    id: z.string().min(1).max(MAX_DELEGATION_ID_LENGTH),
  }),
  ...timing,
})

const sessionClosedSchema = z.looseObject({ type: z.literal('session.closed'), ...timing })

/** A forwarded Live event as both sides accept it; unknown fields pass through unchanged. */
export const forwardedLiveEventSchema = z.discriminatedUnion('type', [
  transcriptDeltaSchema,
  clientDelegationCreatedSchema,
  sessionClosedSchema,
])
export type ForwardedLiveEvent = z.infer<typeof forwardedLiveEventSchema>
export type ClientDelegationCreated = z.infer<typeof clientDelegationCreatedSchema>
