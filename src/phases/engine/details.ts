// The details JSON of one scenario (`transcripts/<id>.json`): the per-scenario evidence behind its results row.
// It has a schema, so the record stage cannot write a field nobody declared and re-grading (`live-evals grade`)
// can read it back. Its fields follow the reference's detailed artifact; `verdict` is added by the one-verdict
// step when the test's assertions changed the row.
import { z } from 'zod'
import { FaultsRecordSchema } from '../../faults/events.ts'
import { SingleTurnObservationSchema } from '../../observability/observation.ts'
import type { ResultItem } from '../../reporting/result-schema.ts'
import { CallerRecordingSchema } from './caller.ts'

export const DETAILS_SCHEMA_VERSION = '2.0'

const json = z.unknown()
const jsonObject = z.record(z.string(), z.unknown())
const line = z.strictObject({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  startMs: z.number(),
  endMs: z.number(),
})

export const ScenarioDetailsSchema = z.strictObject({
  schema_version: z.literal(DETAILS_SCHEMA_VERSION),
  example_id: z.string(),
  session_id: z.string(),
  mode: z.enum(['live', 'offline_fixture']),
  assistant_mode: z.string(),
  audio_source: z.enum(['synthetic', 'recorded']),
  caller_audio: z.enum(['synthetic', 'tts', 'recorded']),
  recording: CallerRecordingSchema.nullable(),
  scenario_type: z.string(),
  context_mode: z.string(),
  conversation_context: json,
  initial_state: jsonObject,
  input_reference: z.string(),
  input_projected: z.string(),
  assistant_projected: z.string(),
  assistant_turn_transcript: z.array(line),
  post_tool_assistant_text: z.string(),
  backend_messages: z.array(json),
  /** The business facts the assistant was shown (never the private overrides): judge evidence when re-grading. */
  public_business_facts: jsonObject.nullable().optional(),
  delegations: z.array(
    z.strictObject({ id: z.string(), startMs: z.number(), settledMs: z.number().nullable() }),
  ),
  expected_delegation: z.string(),
  expected_tool_calls: z.array(json),
  tool_calls: z.array(json),
  tool_executions: z.array(json),
  final_state: jsonObject,
  /** The whole observation the graders read, so a finished run can be re-graded from its artifacts. */
  observation: SingleTurnObservationSchema,
  task_metrics: json,
  interaction_metrics: json,
  efficiency_metrics: json,
  evidence_metrics: json,
  rubric_metrics: json.nullable(),
  dimension_grades: json,
  semantic_grades: json,
  /** One per judge request (cache hits included); the evaluation's cost, never the assistant's consumption. */
  judge_usage_events: z.array(json),
  /** What the judge decided per dimension (scores, spread, Decisions confidence), or the error that stopped it. */
  semantic_judge: jsonObject.nullable().optional(),
  assessment: json,
  observability: jsonObject,
  termination_reason: z.string().nullable(),
  delegation_error: z.string().nullable(),
  listener_problems: z.array(z.string()),
  /** Under a fault profile: every fault injected, by plane (the same record as the row's `faults` extension). */
  faults: FaultsRecordSchema.nullable().optional(),
  verdict: z.strictObject({ status: z.string(), assessment: json }).optional(),
})

export type ScenarioDetails = z.infer<typeof ScenarioDetailsSchema>

/** The details' `verdict` for a row the test's assertions changed: its status and assessment as results.json has them. */
export function detailsVerdict(row: ResultItem): NonNullable<ScenarioDetails['verdict']> {
  return { status: row.status, assessment: row.assessment ?? null }
}
