// results.json, schema "2.0" (§4.1), shared by every phase. This is the compatibility contract with dashboards
// built for the reference toolkit: field names are exact, unknown metrics are null, unobserved token fields absent.

import { z } from 'zod'
import { AudioMetricsSchema } from './audio-metrics-schema.ts'
import { EXTENSION_KEY, RowExtensionBlockSchema, RunExtensionBlockSchema } from './extensions/registry.ts'

export {
  type AudioMetrics,
  AudioMetricsSchema,
  type DurationSummary,
  DurationSummarySchema,
  EXCLUSION_REASONS,
  type ExclusionReason,
  type MeasuredAudioMetrics,
  type ResponseExclusionReasons,
  ResponseExclusionReasonsSchema,
  type ResponseOpportunities,
  ResponseOpportunitiesSchema,
} from './audio-metrics-schema.ts'

export const RESULTS_SCHEMA_VERSION = '2.0'

const nonNegativeInt = z.number().int().nonnegative()
const score = z.number().finite().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')

export const CountPairSchema = z.strictObject({ actual: nonNegativeInt, expected: nonNegativeInt })

export const SemanticQualitySchema = z.strictObject({
  score: score.nullable(),
  dimensions: z.record(z.string(), score),
})

export const TaskMetricsSchema = z.strictObject({
  /** Must be an explicitly observed boolean: see validateResultRow. */
  task_completed: z.boolean(),
  semantic_quality: SemanticQualitySchema,
  tool_accuracy: score.nullable(),
  tool_calls: CountPairSchema.nullable(),
  delegation_accuracy: score.nullable(),
  delegations: CountPairSchema.nullable(),
  turns: CountPairSchema.nullable(),
})

/** Token counts as the reference names them; a count the usage did not report is absent, never 0. */
export const InputTokensSchema = z.strictObject({
  total_tokens: nonNegativeInt.optional(),
  cached_tokens: nonNegativeInt.optional(),
  cache_write_tokens: nonNegativeInt.optional(),
  text_tokens: nonNegativeInt.optional(),
  audio_tokens: nonNegativeInt.optional(),
  image_tokens: nonNegativeInt.optional(),
})

export const OutputTokensSchema = z.strictObject({
  total_tokens: nonNegativeInt.optional(),
  cached_tokens: nonNegativeInt.optional(),
  text_tokens: nonNegativeInt.optional(),
  audio_tokens: nonNegativeInt.optional(),
  image_tokens: nonNegativeInt.optional(),
  reasoning_tokens: nonNegativeInt.optional(),
})

export const FrontendConsumptionSchema = z.strictObject({
  audio_duration_ms: z.number().finite().nonnegative().optional(),
  total_tokens: nonNegativeInt.optional(),
  input: InputTokensSchema.optional(),
  output: OutputTokensSchema.optional(),
})

/** One backend model's share, in the Responses usage names the reference keeps for it. */
export const BackendModelUsageSchema = z.strictObject({
  model: z.string().min(1),
  total_tokens: nonNegativeInt.optional(),
  input_tokens: nonNegativeInt.optional(),
  output_tokens: nonNegativeInt.optional(),
  input_tokens_details: z.record(z.string(), nonNegativeInt).optional(),
  output_tokens_details: z.record(z.string(), nonNegativeInt).optional(),
})

export const BackendConsumptionSchema = z.strictObject({
  total_tokens: nonNegativeInt.optional(),
  input: InputTokensSchema.optional(),
  output: OutputTokensSchema.optional(),
  /** Only present when more than one backend model answered: each model's own usage. */
  models: z.array(BackendModelUsageSchema).min(2).optional(),
})

export const ConsumptionSchema = z.strictObject({
  frontend: FrontendConsumptionSchema,
  backend: BackendConsumptionSchema,
})

/** Artifact paths relative to the run directory; null when the phase does not produce that artifact. */
export const ResultArtifactsSchema = z.strictObject({
  input_audio: z.string().nullable(),
  output_audio: z.string().nullable(),
  conversation_audio: z.string().nullable(),
  conversation_transcript: z.string().nullable(),
  events: z.string().nullable(),
  details: z.string().nullable(),
})

export const ResultErrorSchema = z.strictObject({ stage: z.string(), message: z.string() })

export const ResultStatusSchema = z.enum(['passed', 'failed', 'infrastructure_error'])

export const AssessmentSummarySchema = z.strictObject({
  passed: z.boolean(),
  source: z.enum(['deterministic', 'semantic_judge']),
  rationale: z.string(),
  checks: z.array(
    z.strictObject({
      id: z.string(),
      status: z.enum(['passed', 'failed', 'not_applicable', 'not_assessed']),
      required: z.boolean(),
    }),
  ),
})

/** Who played the caller (§4.1): the RUN simulator offline or live, or a single-turn request's audio source. */
export const CallerModeSchema = z.enum(['offline_fixture', 'gpt-live', 'tts', 'recorded_audio'])

/** The caller's actions of a conversation, counted (§6's five actions; absent ones did not occur). */
export const CallerActionsSchema = z.partialRecord(
  z.enum(['OPENING', 'SPEAK', 'BACKCHANNEL', 'INTERRUPT', 'STOP']),
  nonNegativeInt,
)

/** The parts of the free-form `interaction` object the reference gives a fixed meaning; the rest is kept as given. */
const InteractionObservabilitySchema = z.looseObject({
  caller_mode: CallerModeSchema.optional(),
  caller_actions: CallerActionsSchema.optional(),
})

export const ResultItemSchema = z.strictObject({
  scenario_id: z.string().min(1),
  status: ResultStatusSchema,
  metrics: z.strictObject({
    task: TaskMetricsSchema,
    audio: AudioMetricsSchema,
    consumption: ConsumptionSchema,
  }),
  artifacts: ResultArtifactsSchema,
  error: ResultErrorSchema.nullable(),
  title: z.string().optional(),
  /** WALK: the recording object, nested metadata included. */
  recording: z.record(z.string(), z.unknown()).optional(),
  assessment: AssessmentSummarySchema.optional(),
  /** Free-form in the reference; `live_evals` is our extension block (extensions/registry.ts). */
  observability: z
    .looseObject({
      [EXTENSION_KEY]: RowExtensionBlockSchema.optional(),
      interaction: InteractionObservabilitySchema.optional(),
    })
    .optional(),
  /** RUN: whether the simulated caller made the run valid. */
  validity: z.record(z.string(), z.unknown()).optional(),
})

export const RunMetadataSchema = z.strictObject({
  id: z.string().min(1),
  module: z.enum(['crawl', 'walk', 'run']),
  execution_mode: z.enum(['live', 'offline_fixture']),
  interaction: z.enum(['single_turn', 'multi_turn']),
  /** Absolute path of the dataset file. */
  dataset: z.string().min(1),
  /** Free-form in the reference; `live_evals` is our extension block (extensions/registry.ts). */
  configuration: z.looseObject({ [EXTENSION_KEY]: RunExtensionBlockSchema.optional() }),
})

/** Execution counts only: never scores. */
export const ResultsSummarySchema = z.strictObject({
  total: nonNegativeInt,
  passed: nonNegativeInt,
  failed: nonNegativeInt,
  infrastructure_errors: nonNegativeInt,
})

export const ResultsDocumentSchema = z.strictObject({
  schema_version: z.literal(RESULTS_SCHEMA_VERSION),
  run: RunMetadataSchema,
  summary: ResultsSummarySchema,
  results: z.array(ResultItemSchema),
})

export type CountPairValue = z.infer<typeof CountPairSchema>
export type TaskMetrics = z.infer<typeof TaskMetricsSchema>
export type BackendModelUsage = z.infer<typeof BackendModelUsageSchema>
export type Consumption = z.infer<typeof ConsumptionSchema>
export type ResultArtifacts = z.infer<typeof ResultArtifactsSchema>
export type ResultError = z.infer<typeof ResultErrorSchema>
export type ResultStatus = z.infer<typeof ResultStatusSchema>
export type AssessmentSummary = z.infer<typeof AssessmentSummarySchema>
export type ResultItem = z.infer<typeof ResultItemSchema>
export type RunMetadata = z.infer<typeof RunMetadataSchema>
export type ResultsSummary = z.infer<typeof ResultsSummarySchema>
export type ResultsDocument = z.infer<typeof ResultsDocumentSchema>
