// What a client-delegation service sends to the evaluator's connector. Per delegation, in order: the handoff,
// backend and tool events, one or more `live.send` commentary chunks (relayed to GPT-Live unchanged), then
// `client_delegation.completed`. A session ends with `session.closed` (after the connector forwarded Live's) or
// a top-level `error` whose message is always "Session stopped": peers learn the code, never internals.
import { z } from 'zod'
import { toolExecutionRecordSchema } from '../../../runtime/tool-executor.ts'

const jsonObjectSchema = z.record(z.string(), z.unknown())

export const SESSION_STOPPED_MESSAGE = 'Session stopped'
export const sessionErrorCodeSchema = z.enum([
  'client_protocol_error',
  'client_limit_reached',
  'client_session_timeout',
  'client_assistant_error',
])
export type SessionErrorCode = z.infer<typeof sessionErrorCodeSchema>

export const sessionReadySchema = z.strictObject({
  type: z.literal('session.ready'),
  /**
   * Ours, optional: the service's application state when the session starts (a deep copy). The evaluator grades
   * against it as the initial state, because the service, not the scenario file, owns the state.
   */
  application_state: jsonObjectSchema.optional(),
})

/** A commentary chunk for GPT-Live; the connector relays `event` unchanged. */
export const liveSendSchema = z.strictObject({
  type: z.literal('live.send'),
  event: z.strictObject({
    type: z.literal('session.commentary.append'),
    /** Chosen by the service (ours: `event_` + 32 hex digits, counted per session). */
    event_id: z.string().min(1),
    delegation_id: z.string().min(1),
    content: z.string().refine((text) => text.trim() !== '', 'commentary content must not be blank'),
  }),
})

/** Fields the service adds to everything a delegation publishes. */
const published = { delegation_id: z.string().min(1), _client_managed: z.literal(true) }

export const handoffEventSchema = z.looseObject({
  type: z.literal('client_delegation.handoff'),
  ...published,
  task: z.string(),
  /** The conversation not handed over before, as SRT. */
  transcript: z.string(),
  follow_up: z.boolean(),
})

export const toolCalledEventSchema = z.looseObject({
  type: z.literal('tool.called'),
  ...published,
  name: z.string(),
  call_id: z.string().optional(),
  arguments: z.unknown(),
})

/** The service's evidence on every tool result: the state after the call and that call's execution record. */
const toolEvidence = {
  application_state: jsonObjectSchema,
  tool_execution: toolExecutionRecordSchema.optional(),
}

export const toolCompletedEventSchema = z.looseObject({
  type: z.literal('tool.completed'),
  ...published,
  ...toolEvidence,
  name: z.string(),
  call_id: z.string().optional(),
  result: z.unknown(),
})

export const toolFailedEventSchema = z.looseObject({
  type: z.literal('tool.failed'),
  ...published,
  ...toolEvidence,
  name: z.string(),
  call_id: z.string().optional(),
  error: z.string(),
})

export const delegationCompletedEventSchema = z.looseObject({
  type: z.literal('client_delegation.completed'),
  ...published,
  text: z.string(),
})

export const BACKEND_WORK_FAILED = { code: 'client_assistant_error', message: 'Backend work failed' } as const

/** A delegation's failure as peers see it: a fixed code and message, no delegation id, no cause. */
export const backendErrorEventSchema = z.strictObject({
  type: z.literal('error'),
  error: z.strictObject({
    code: z.literal(BACKEND_WORK_FAILED.code),
    message: z.literal(BACKEND_WORK_FAILED.message),
  }),
})

/** Backend progress passed through verbatim (e.g. `client_delegation.context.assembled`, stream events). */
export const progressEventSchema = z.looseObject({
  type: z.string().min(1),
  delegation_id: z.string().min(1).optional(),
})

const innerEventSchemas = {
  'client_delegation.handoff': handoffEventSchema,
  'tool.called': toolCalledEventSchema,
  'tool.completed': toolCompletedEventSchema,
  'tool.failed': toolFailedEventSchema,
  'client_delegation.completed': delegationCompletedEventSchema,
  error: backendErrorEventSchema,
} as const

export type AssistantInnerEvent =
  | z.infer<(typeof innerEventSchemas)[keyof typeof innerEventSchemas]>
  | z.infer<typeof progressEventSchema>

/** The schema an inner event of this type must satisfy (progress events for any type not named here). */
export function assistantInnerEventSchemaFor(type: unknown): z.ZodType<AssistantInnerEvent> {
  return typeof type === 'string' && Object.hasOwn(innerEventSchemas, type)
    ? innerEventSchemas[type as keyof typeof innerEventSchemas]
    : progressEventSchema
}

export const assistantEventSchema = z.strictObject({
  type: z.literal('assistant.event'),
  event: z.looseObject({ type: z.string().min(1) }).check((context) => {
    const parsed = assistantInnerEventSchemaFor(context.value.type).safeParse(context.value)
    if (parsed.success) return
    for (const issue of parsed.error.issues) {
      context.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: context.value })
    }
  }),
})

export const serviceSessionClosedSchema = z.strictObject({ type: z.literal('session.closed') })

export const serviceErrorSchema = z.strictObject({
  type: z.literal('error'),
  error: z.strictObject({ code: sessionErrorCodeSchema, message: z.literal(SESSION_STOPPED_MESSAGE) }),
})

export const serviceMessageSchema = z.discriminatedUnion('type', [
  sessionReadySchema,
  assistantEventSchema,
  liveSendSchema,
  serviceSessionClosedSchema,
  serviceErrorSchema,
])
export type ServiceMessage = z.infer<typeof serviceMessageSchema>
export type SessionReady = z.infer<typeof sessionReadySchema>
export type LiveSend = z.infer<typeof liveSendSchema>
export type AssistantEvent = z.infer<typeof assistantEventSchema>
export type ServiceError = z.infer<typeof serviceErrorSchema>
