// What one single-turn execution observed, reduced to the facts graders need: the observe stage builds it from the
// timeline and the tool executor; it is validated with zod at that boundary so graders can trust its shape.

import { z } from 'zod'
import { InjectedFaultSchema } from '../assistants/runtime/faults.ts'
import { FaultsRecordSchema } from '../faults/events.ts'
import { CallerExperienceSchema } from '../faults/experience.ts'
// The contract's JSON object keeps `__proto__`/`constructor`/`prototype` keys as data; a plain z.record drops them.
import { JsonObjectSchema } from '../scenarios/index.ts'

export const RequestedToolCallSchema = z.strictObject({
  name: z.string(),
  arguments: JsonObjectSchema,
})

export const ToolExecutionSchema = z.strictObject({
  call_id: z.string(),
  name: z.string(),
  arguments: JsonObjectSchema,
  status: z.enum(['completed', 'failed']),
  output: z.unknown(),
  /** Timeline time (ms) of the terminal tool event; null when the timeline did not place it. */
  completed_at_ms: z.number().nullable(),
  /** The fault a fault profile injected into this call (evaluator-side); absent for an undisturbed call. */
  fault: InjectedFaultSchema.optional(),
})

export const TranscriptLineSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  /** Timeline time (ms) the utterance started; null when unknown. */
  start_ms: z.number().nullable(),
})

const OptionalCountSchema = z.number().int().nonnegative().nullable()

export const SingleTurnObservationSchema = z.strictObject({
  /** Why the session ended, e.g. `response_completed`, `user_stopped`, `response_timeout`; null if unknown. */
  termination_reason: z.string().nullable(),
  /** Ids of `session.delegation.created` events, repeats included (counting dedupes them). */
  delegation_ids: z.array(z.string()),
  /** Tool calls the assistant's backend asked for, in request order. */
  requested_tool_calls: z.array(RequestedToolCallSchema),
  /** Terminal executions recorded by the application, in completion order. */
  tool_executions: z.array(ToolExecutionSchema),
  initial_application_state: JsonObjectSchema,
  final_application_state: JsonObjectSchema,
  /** The evaluation transcript (caller and assistant lines). */
  transcript: z.array(TranscriptLineSchema),
  /** Assistant speech heard after the last tool result; '' when none. */
  post_tool_assistant_text: z.string(),
  /** Turn counts from the timeline; null when the timeline could not establish them. */
  caller_turn_count: OptionalCountSchema,
  assistant_response_episode_count: OptionalCountSchema,
  closing_turn_count: OptionalCountSchema,
  /** Under a fault profile: every fault injected (faults/events.ts); absent when the scenario ran clean. */
  faults: FaultsRecordSchema.optional(),
  /** When work was pending and who could be heard (faults/experience.ts); absent in observations before it. */
  experience: CallerExperienceSchema.optional(),
})

export type RequestedToolCall = z.infer<typeof RequestedToolCallSchema>
export type ToolExecution = z.infer<typeof ToolExecutionSchema>
export type TranscriptLine = z.infer<typeof TranscriptLineSchema>
export type SingleTurnObservation = z.infer<typeof SingleTurnObservationSchema>

/** Conversations that ended because they were done, not because something cut them off. */
export const COMPLETED_TERMINATION_REASONS: ReadonlySet<string> = new Set([
  'user_stopped',
  'response_completed',
])

type WithStatus = Pick<ToolExecution, 'status'>

export function completedExecutions<T extends WithStatus>(executions: readonly T[]): T[] {
  return executions.filter((execution) => execution.status === 'completed')
}

export function failedExecutions<T extends WithStatus>(executions: readonly T[]): T[] {
  return executions.filter((execution) => execution.status === 'failed')
}

/** The reportable view of an execution (no output): what dimensions show as evidence and rows as observability. */
export function executionSummaries(executions: readonly ToolExecution[]) {
  return executions.map(({ name, status, arguments: args, call_id }) => ({
    name,
    status,
    arguments: args,
    call_id,
  }))
}
