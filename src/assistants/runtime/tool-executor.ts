// The contract between the generic tool runtime and an application's executor. An executor validates
// arguments itself and throws a ToolArgumentError (or a subclass) for anything the model got wrong;
// the runtime turns that into a failed execution record instead of crashing the session.
import { z } from 'zod'
import type { JsonObject } from '../offline-behaviour.ts'
import { InjectedFaultSchema } from './faults.ts'
import type { FunctionToolDefinition } from './tool-definitions.ts'

/**
 * A problem with a tool call the model made (bad arguments, unknown tool, a denied action). The
 * message is returned to the model verbatim as `{ok: false, error: message}`.
 */
export class ToolArgumentError extends Error {
  override name = 'ToolArgumentError'
}

/** One tool execution as graders see it, in the order it happened. */
export const toolExecutionRecordSchema = z.object({
  call_id: z.string().nullable(),
  name: z.string(),
  // The arguments as the model sent them (after dropping explicitly null optional ones). A call
  // whose arguments were not valid JSON keeps the raw string here, so the evidence is not lost.
  arguments: z.unknown(),
  status: z.enum(['completed', 'failed']),
  output: z.record(z.string(), z.unknown()),
  /** The fault a fault profile injected into this call; absent for an undisturbed call. */
  fault: InjectedFaultSchema.optional(),
})
export type ToolExecutionRecord = z.infer<typeof toolExecutionRecordSchema>

/** An application's tools: definitions for the model, execution, and the application state. */
export interface ToolExecutor {
  /** The function tools this executor serves, in the definitions-file shape. */
  readonly definitions: readonly FunctionToolDefinition[]
  /** Completed executions only (a failed call records nothing here). */
  readonly executions: readonly ToolExecutionRecord[]
  /**
   * Run one tool. Throws ToolArgumentError when the call is invalid or denied; in that case nothing
   * was mutated and nothing was recorded.
   */
  execute(name: string, args: unknown, callId?: string | null): JsonObject | Promise<JsonObject>
  /** A deep copy of the current application state. */
  snapshot(): JsonObject
}
