// What the evaluator's connector sends to a client-delegation service: `session.configure` exactly once and
// first, then `live.event`s. Both are strict (unknown keys are protocol errors), so nothing evaluator-only can
// ride along under another name: the configure carries the authorized startup history and, only when the
// service was started to accept them, the scenario's initial application state and conversation summary.
import { z } from 'zod'
import { forwardedLiveEventSchema } from './live-events.ts'

/** Most startup history items a configure may carry. */
export const MAX_INITIAL_ITEMS = 100

const historyContentPartSchema = z.looseObject({
  type: z.enum(['input_text', 'output_text']),
  text: z.string(),
})

/** One item of authorized startup history: a user or assistant message with text parts. */
export const historyItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant']),
  content: z.array(historyContentPartSchema).min(1),
})
export type HistoryItem = z.infer<typeof historyItemSchema>

const jsonObjectSchema = z.record(z.string(), z.unknown())

export const sessionConfigureSchema = z.strictObject({
  type: z.literal('session.configure'),
  /** The authorized startup history; the evaluator sends `[]` when there is none. */
  initial_items: z.array(historyItemSchema).max(MAX_INITIAL_ITEMS).optional(),
  /** For a non-OpenAI backend that wants it; the reference backends choose their own model. */
  model: z.string().optional(),
  instructions: z.string().optional(),
  tools: z.array(jsonObjectSchema).optional(),
  /**
   * Ours, beyond the reference contract: the scenario's authorized initial application state. A connector
   * sends it only when asked to; a service accepts it only when started with `--accept-scenario-state`.
   */
  application_state: jsonObjectSchema.optional(),
  /**
   * Ours too, under the same opt-in: the scenario's caller-visible summary of earlier conversation (authorized
   * context, like the history; never evaluator-only data). Without it a remote backend cannot know what the
   * in-process one reads from the summary.
   */
  conversation_summary: z.string().optional(),
})
export type SessionConfigure = z.infer<typeof sessionConfigureSchema>

/** A Live event forwarded unchanged: exactly `type` and `event`. */
export const liveEventMessageSchema = z.strictObject({
  type: z.literal('live.event'),
  event: forwardedLiveEventSchema,
})
export type LiveEventMessage = z.infer<typeof liveEventMessageSchema>

export const connectorMessageSchema = z.discriminatedUnion('type', [
  sessionConfigureSchema,
  liveEventMessageSchema,
])
export type ConnectorMessage = z.infer<typeof connectorMessageSchema>
