// What the harness registers for one offline session: the hearing oracle (what the caller says, on the
// received-audio clock), the assistant-owned voice behaviour, and faults to inject. Validated on
// registration so a bad script fails in the test that wrote it, not mid-session.
import { z } from 'zod'
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'

const nonNegativeMs = z.number().int().nonnegative()

export const heardUtteranceSchema = z
  .strictObject({
    text: z.string().trim().min(1, 'an utterance needs non-empty text'),
    startMs: nonNegativeMs,
    endMs: nonNegativeMs,
  })
  .refine((u) => u.endMs > u.startMs, { message: 'endMs must be after startMs', path: ['endMs'] })
export type HeardUtterance = z.infer<typeof heardUtteranceSchema>

/** When an injected fault fires: after N server events were sent, or when the audio clock reaches a point. */
const triggerFields = {
  afterEvents: z.number().int().nonnegative().optional(),
  atAudioMs: nonNegativeMs.optional(),
}
const exactlyOneTrigger = (t: { afterEvents?: number | undefined; atAudioMs?: number | undefined }) =>
  (t.afterEvents === undefined) !== (t.atAudioMs === undefined)
const triggerMessage = { message: 'give exactly one of afterEvents or atAudioMs' }

export const faultPlanSchema = z.strictObject({
  /** Drop the TCP connection without a close frame or `session.closed` (a network failure). */
  disconnect: z.strictObject(triggerFields).refine(exactlyOneTrigger, triggerMessage).optional(),
  /** Send one text frame that is not a JSON event. */
  malformedFrame: z
    .strictObject({ ...triggerFields, payload: z.string().default('{"type": "session.') })
    .refine(exactlyOneTrigger, triggerMessage)
    .optional(),
  /** Send one `error` event the client did not cause; the session keeps running. */
  errorEvent: z
    .strictObject({
      ...triggerFields,
      type: z.string().default('server_error'),
      code: z.string().default('internal_error'),
      message: z.string().default('Injected offline server error.'),
    })
    .refine(exactlyOneTrigger, triggerMessage)
    .optional(),
  /** End the session from the server side with this `session.closed` reason, then close the transport. */
  serverClose: z
    .strictObject({
      ...triggerFields,
      reason: z.enum(['expired', 'connection_lost', 'content', 'remote_hangup']),
    })
    .refine(exactlyOneTrigger, triggerMessage)
    .optional(),
  /** Never answer `session.start`: no `session.started` and no error; the socket stays open and silent. */
  withholdSessionStarted: z.boolean().default(false),
  /** After `session.close`, never send `session.closed` (the session stays closing; the socket stays open). */
  withholdSessionClosed: z.boolean().default(false),
  /** Extra received-audio milliseconds before each `session.*.appended` acknowledgement. */
  ackDelayMs: nonNegativeMs.default(0),
})
export type FaultPlan = z.input<typeof faultPlanSchema>
export type ResolvedFaultPlan = z.infer<typeof faultPlanSchema>

/**
 * Faults of the backend model the server plays for Responses delegation (the harness's fault profile, issue 22):
 * asked once per delegation, with its id and the session clock; null answers normally. The hooks decide and record
 * on the harness's side; the server only acts out a failing or slow backend.
 */
export interface OfflineServerFaults {
  delegation(
    delegationId: string,
    atMs: number,
  ): { kind: 'backend_error' } | { kind: 'backend_stall'; delayMs: number } | null
}

const serverFaultsSchema = z.custom<OfflineServerFaults>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as OfflineServerFaults).delegation === 'function',
  { message: 'backendFaults must implement delegation(delegationId, atMs)' },
)

const behaviourSchema = z.custom<OfflineBehaviour>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as OfflineBehaviour).inferToolCall === 'function' &&
    typeof (value as OfflineBehaviour).directAnswer === 'function' &&
    typeof (value as OfflineBehaviour).finalAnswer === 'function',
  { message: 'behaviour must implement inferToolCall, directAnswer and finalAnswer' },
)

export const sessionScriptSchema = z.strictObject({
  hearing: z
    .array(heardUtteranceSchema)
    .refine((list) => list.every((u, i) => i === 0 || u.startMs >= (list[i - 1]?.endMs ?? 0)), {
      message: 'utterances must be in order and must not overlap',
    }),
  /** Without a behaviour the voice model hears (transcribes) but never speaks or delegates. */
  behaviour: behaviourSchema.optional(),
  faults: faultPlanSchema.optional(),
  /** The Responses backend model's faults under a fault profile; absent: it always answers normally. */
  backendFaults: serverFaultsSchema.optional(),
  /**
   * The words of the service's automatic acknowledgement after each delegation (default "One moment.");
   * when it is spoken follows the session's `acknowledgement_delay_ms` (acknowledgements.ts).
   */
  acknowledgement: z.string().trim().min(1).optional(),
  /** `expires_at` (Unix seconds) reported in session snapshots; defaults to a fixed far-future instant. */
  expiresAt: z.number().int().positive().optional(),
})

export interface OfflineSessionScript {
  hearing: Array<{ text: string; startMs: number; endMs: number }>
  behaviour?: OfflineBehaviour
  faults?: FaultPlan
  backendFaults?: OfflineServerFaults
  acknowledgement?: string
  expiresAt?: number
}
export type ResolvedSessionScript = z.infer<typeof sessionScriptSchema>

export function resolveSessionScript(token: string, script: OfflineSessionScript): ResolvedSessionScript {
  const parsed = sessionScriptSchema.safeParse(script)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || '(script)'}: ${issue.message}`,
  )
  throw new Error(
    `offline GPT-Live server: the script registered for session token ${redactToken(token)} is invalid: ${problems.join('; ')}`,
  )
}

/** Tokens may be real API keys when someone points a client at `live-evals offline-server`: never print them. */
export function redactToken(token: string): string {
  return token.length <= 8 ? '"…"' : `"${token.slice(0, 4)}…"`
}
