// What the report reads of a scenario's details JSON, whichever phase wrote it: a single-turn details file (CRAWL,
// WALK) or a RUN conversation's. Each is validated with its own zod schema and reduced to one view: the checks
// with their evidence, the semantic grades, both speakers' timed lines, delegations, tool executions and the
// initial and final state.
import { z } from 'zod'
import type { JsonObject } from '../grading/json-values.ts'
import { type ToolExecution, ToolExecutionSchema } from '../observability/observation.ts'
import { ScenarioDetailsSchema } from '../phases/engine/details.ts'
import { RunDetailsSchema } from '../phases/run/details.ts'

export interface ReportDetails {
  assessment: unknown
  semantic_grades: unknown
  lines: { role: 'caller' | 'assistant'; text: string; start_ms: number | null; end_ms: number | null }[]
  delegations: { id: string; startMs: number; settledMs: number | null }[]
  tool_executions: ToolExecution[]
  initial_state: JsonObject
  final_state: JsonObject
  /** The evaluator's model calls (the judge's tokens), as the details recorded them. */
  judge_usage_events: unknown[]
}

const byStart = (a: { start_ms: number | null }, b: { start_ms: number | null }) =>
  (a.start_ms ?? Number.POSITIVE_INFINITY) - (b.start_ms ?? Number.POSITIVE_INFINITY)

/** The view of a details document, or the first problem that makes it unreadable. */
export function reportDetailsOf(value: unknown): { details: ReportDetails } | { problem: string } {
  // A RUN conversation's details name its caller's utterances; anything else is read as single-turn.
  const isRun = typeof value === 'object' && value !== null && 'caller_utterances' in value
  if (isRun) {
    const parsed = RunDetailsSchema.safeParse(value)
    if (!parsed.success) return { problem: firstIssue(parsed.error) }
    const run = parsed.data
    const executions = z.array(ToolExecutionSchema).safeParse(run.tool_executions)
    return {
      details: {
        assessment: run.assessment,
        semantic_grades: run.semantic_grades,
        lines: run.transcript
          .map((line) => ({
            role: line.role === 'user' ? ('caller' as const) : ('assistant' as const),
            text: line.text,
            start_ms: line.startMs,
            end_ms: line.endMs,
          }))
          .sort(byStart),
        delegations: run.delegations,
        tool_executions: executions.success ? executions.data : [],
        initial_state: run.initial_state,
        final_state: run.final_state,
        judge_usage_events: run.judge_usage_events,
      },
    }
  }
  const parsed = ScenarioDetailsSchema.safeParse(value)
  if (!parsed.success) return { problem: firstIssue(parsed.error) }
  const details = parsed.data
  const observation = details.observation
  return {
    details: {
      assessment: details.assessment,
      semantic_grades: details.semantic_grades,
      lines: [
        ...observation.transcript
          .filter((line) => line.role === 'user')
          .map((line) => ({
            role: 'caller' as const,
            text: line.text,
            start_ms: line.start_ms,
            end_ms: null,
          })),
        ...details.assistant_turn_transcript.map((line) => ({
          role: 'assistant' as const,
          text: line.text,
          start_ms: line.startMs,
          end_ms: line.endMs,
        })),
      ].sort(byStart),
      delegations: details.delegations,
      tool_executions: observation.tool_executions,
      initial_state: observation.initial_application_state,
      final_state: observation.final_application_state,
      judge_usage_events: details.judge_usage_events,
    },
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  return `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`
}
