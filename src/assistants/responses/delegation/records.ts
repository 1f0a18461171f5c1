// What the Responses delegation controller records for the observation: the delegations GPT-Live opened,
// every function call the backend requested (run or not, and why not), backend usage per response, and
// each publication of results back to the session. Times are on the session clock (milliseconds).
import { z } from 'zod'
import { backendUsageSchema, TERMINAL_RESPONSE_EVENTS } from './nested-events.ts'

export const responsesDelegationRecordSchema = z.object({
  delegationId: z.string(),
  /** `offset_ms` of `session.delegation.created`: where on the session timeline the delegation began. */
  offsetMs: z.number(),
  receivedAtMs: z.number(),
  /** Backend responses of this delegation in the order they were created (a continuation adds one). */
  responseIds: z.array(z.string()),
})
export type ResponsesDelegationRecord = z.infer<typeof responsesDelegationRecordSchema>

export const requestedCallRecordSchema = z.object({
  delegationId: z.string().nullable(),
  responseId: z.string().nullable(),
  callId: z.string().nullable(),
  name: z.string().nullable(),
  /** The raw arguments string as the backend sent it. */
  arguments: z.unknown(),
  /** The item's status as sent; null when it had none. */
  status: z.string().nullable(),
  receivedAtMs: z.number(),
  /** Whether this delivery started an execution. */
  executed: z.boolean(),
  /** Why it did not: the status was not `completed`, the call_id already ran, or the item was unusable. */
  skipped: z.enum(['status_not_completed', 'duplicate_call_id', 'malformed_item']).nullable(),
})
export type RequestedCallRecord = z.infer<typeof requestedCallRecordSchema>

export const backendUsageRecordSchema = z.object({
  delegationId: z.string().nullable(),
  responseId: z.string(),
  /** The terminal nested event that reported it. */
  terminal: z.enum(TERMINAL_RESPONSE_EVENTS),
  /** Null when the terminal event carried no usage: unknown, never zero. */
  usage: backendUsageSchema.nullable(),
  receivedAtMs: z.number(),
})
export type BackendUsageRecord = z.infer<typeof backendUsageRecordSchema>

export const resultPublicationSchema = z.object({
  delegationId: z.string().nullable(),
  responseId: z.string(),
  /** call_ids whose `function_call_output` was sent, in order. */
  callIds: z.array(z.string()),
  /** `published`: every output and the `response.create` went out; otherwise why the round was not continued. */
  outcome: z.enum(['published', 'response_not_completed', 'session_ended']),
  /** When the round ended (published or given up), session clock. */
  atMs: z.number(),
})
export type ResultPublication = z.infer<typeof resultPublicationSchema>

export const backendMessageRecordSchema = z.object({
  delegationId: z.string().nullable(),
  /** The backend's finished message text (what it handed the voice model). */
  text: z.string(),
  receivedAtMs: z.number(),
})
export type BackendMessageRecord = z.infer<typeof backendMessageRecordSchema>

export const responsesDelegationObservationSchema = z.object({
  delegations: z.array(responsesDelegationRecordSchema),
  requestedCalls: z.array(requestedCallRecordSchema),
  backendUsage: z.array(backendUsageRecordSchema),
  /** The backend's messages, in the order they finished. */
  backendMessages: z.array(backendMessageRecordSchema).default(() => []),
  publications: z.array(resultPublicationSchema),
  /** `response.function_call_arguments.done` events seen: observations only, never a reason to run a tool. */
  argumentsDoneEvents: z.number().int().nonnegative(),
})
export type ResponsesDelegationObservation = z.infer<typeof responsesDelegationObservationSchema>
