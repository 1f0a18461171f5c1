// The details JSON of one RUN conversation (`transcripts/<id>.json`): the evidence behind its results row. It has
// a schema, so the grader cannot write a field nobody declared. Its fields follow the reference's detailed RUN
// artifact: the caller's plan and actions, both speakers' timed transcript, delegations and tool executions,
// initial and final state, the metrics, the grade and its checks, the completion and the simulation's validity.
// `verdict` is added by the one-verdict step when the test's assertions changed the row.
import { z } from 'zod'
import { AudioRealismMetadata } from '../../audio/effects/metadata.ts'
import { FaultsRecordSchema } from '../../faults/events.ts'
import { CompletionSignalSchema } from './drain.ts'
import { InterventionOutcomeSchema } from './interventions/index.ts'
import { SimulationValiditySchema } from './validity.ts'

export const RUN_DETAILS_SCHEMA_VERSION = '2.0'

const json = z.unknown()
const jsonObject = z.record(z.string(), z.unknown())

export const RunDetailsSchema = z.strictObject({
  schema_version: z.literal(RUN_DETAILS_SCHEMA_VERSION),
  example_id: z.string(),
  session_id: z.string(),
  mode: z.enum(['live', 'offline_fixture']),
  assistant_mode: z.string(),
  caller_mode: z.enum(['offline_fixture', 'gpt-live']),
  scenario_type: z.string(),
  conversation_context: json,
  /** What the caller said and when, with its action (OPENING, SPEAK, BACKCHANNEL, INTERRUPT, STOP). */
  caller_utterances: z.array(
    z.strictObject({ text: z.string(), action: z.string(), start_ms: z.number(), end_ms: z.number() }),
  ),
  caller_actions: z.record(z.string(), z.number().int().nonnegative()),
  transcript: z.array(
    z.strictObject({
      role: z.enum(['user', 'assistant']),
      text: z.string(),
      startMs: z.number(),
      endMs: z.number(),
      /** On the assistant's last line when the call ended while it was still talking (cut-off.ts). */
      cut: z.literal(true).optional(),
    }),
  ),
  delegations: z.array(
    z.strictObject({ id: z.string(), startMs: z.number(), settledMs: z.number().nullable() }),
  ),
  initial_state: jsonObject,
  final_state: jsonObject,
  tool_executions: z.array(json),
  /** What the assistant's backend handed its voice model to say, in order. */
  backend_messages: z.array(z.string()),
  /** The whole observation the RUN graders read. */
  observation: jsonObject,
  interaction_metrics: json,
  turn_metrics: json,
  tool_evidence: json,
  procedure: json.nullable(),
  outcome_state_satisfied: z.boolean().nullable(),
  semantic_grades: json,
  /** One per judge request (cache hits included); the evaluation's cost, never the assistant's consumption. */
  judge_usage_events: z.array(json),
  semantic_judge: jsonObject.nullable(),
  assessment: json,
  observability: jsonObject,
  validity: SimulationValiditySchema,
  /** `error` when the evaluation failed at runtime (§6); otherwise the graded verdict. */
  task_status: z.enum(['passed', 'failed', 'error']),
  /** How the call ended, or the failure stage when it failed at runtime. */
  termination_reason: z.string().nullable(),
  completion_policy: z.string(),
  finish_observed_ms: z.number().nullable(),
  /** The completion signal whose drain ended the call; null when none did. Absent in details written before it. */
  completion_signal: CompletionSignalSchema.nullable().optional(),
  drain_revocations: z.array(json),
  /** Under a fault profile: every fault injected, by plane (the same record as the row's `faults` extension). */
  faults: FaultsRecordSchema.nullable(),
  /** Each scheduled intervention's outcome (exercised, yielded, yield latency, or why it was not exercised). */
  interventions: z.array(InterventionOutcomeSchema),
  /** The acoustic preset on the caller's voice (its effects, seed, lost frames); null for a clean call. */
  audio_realism: AudioRealismMetadata.nullable(),
  /**
   * Live: the simulated caller's GPT-Live model (absent in details written before simulation.simulator_model),
   * voice, audio and reasoning-backend usage (the evaluation's cost, never the row's).
   */
  caller: z
    .strictObject({
      model: z.string().optional(),
      voice: z.string(),
      audio_duration_ms: z.number().nullable(),
      backend_usage: z.array(json),
    })
    .nullable(),
  /** Live: the completion observer's assessments, usage and the error that switched it to the fallback. */
  observer: z
    .strictObject({ assessments: z.array(json), usage: z.array(json), failure: z.string().nullable() })
    .nullable(),
  /** The media clock the call ran on: real time live, virtual offline. */
  clock_mode: z.enum(['virtual', 'real_time']),
  /** A failure after the call was played (live: pending work, cleanup; the judge), kept with the conversation. */
  failure: z.strictObject({ stage: z.string(), message: z.string() }).nullable(),
  /** Why the row failed schema validation, when it did; the row keeps a primary failure's stage over it. */
  result_validation: z.string().nullable(),
  /** Paths (relative to the run directory) of the ticks and turns JSONL when debug artifacts were asked for. */
  debug_artifacts: z.strictObject({ ticks: z.string(), turns: z.string() }).nullable(),
  verdict: z.strictObject({ status: z.string(), assessment: json }).optional(),
})

export type RunDetails = z.infer<typeof RunDetailsSchema>
