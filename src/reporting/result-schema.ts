// results.json, schema "2.0" (§4.1), shared by every phase. This is the compatibility contract with dashboards
// built for the reference toolkit: field names are exact, unknown metrics are null, unobserved token fields absent.

import { z } from 'zod'
import { EXTENSION_KEY, RowExtensionBlockSchema, RunExtensionBlockSchema } from './extensions/registry.ts'

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

/** `{cumulative, maximum}` in ms; the whole summary is null when there was no response opportunity (§4.2). */
export const DurationSummarySchema = z.strictObject({
  cumulative: z.number().finite().nonnegative(),
  maximum: z.number().finite().nonnegative(),
})

/** The reference's eight opportunity counts, exactly (its `response_*`, `no_response_count`, `caller_turn_count`). */
export const ResponseOpportunitiesSchema = z.strictObject({
  caller_turn_count: nonNegativeInt,
  response_eligible_count: nonNegativeInt,
  response_censored_count: nonNegativeInt,
  response_excluded_count: nonNegativeInt,
  response_late_count: nonNegativeInt,
  response_total: nonNegativeInt,
  response_count: nonNegativeInt,
  no_response_count: nonNegativeInt,
})

export const EXCLUSION_REASONS = ['backchannel', 'caller_closing', 'assistant_active_at_request_end'] as const

/** Only reasons that occurred are listed, so every count is at least 1; `{}` when nothing was excluded. */
export const ResponseExclusionReasonsSchema = z.partialRecord(
  z.enum(EXCLUSION_REASONS),
  z.number().int().min(1, 'only reasons that occurred are listed'),
)

const POLICY_FIELDS = [
  'metrics_version',
  'response_deadline_ms',
  'response_opportunities',
  'response_exclusion_reasons',
] as const

/**
 * The five primary audio metrics, plus (metric contract v2) the policy and denominators behind the rates. The
 * reference writes the four policy fields together when the metrics were measured, and none of them when nothing
 * was measured (then every metric is null).
 */
export const AudioMetricsSchema = z
  .strictObject({
    response_rate: score.nullable(),
    response_latency_ms: z.number().finite().nonnegative().nullable(),
    interruption_rate: z.number().finite().nonnegative().nullable(),
    speaking_duration_ms: DurationSummarySchema.nullable(),
    floor_hold_silence_ms: DurationSummarySchema.nullable(),
    metrics_version: z.literal('2.0').optional(),
    response_deadline_ms: z.number().finite().positive().optional(),
    response_opportunities: ResponseOpportunitiesSchema.optional(),
    response_exclusion_reasons: ResponseExclusionReasonsSchema.optional(),
  })
  .superRefine((audio, context) => {
    const present = POLICY_FIELDS.filter((key) => audio[key] !== undefined)
    if (present.length !== 0 && present.length !== POLICY_FIELDS.length) {
      const missing = POLICY_FIELDS.filter((key) => audio[key] === undefined)
      context.addIssue({
        code: 'custom',
        path: [missing[0] ?? 'metrics_version'],
        message: `${POLICY_FIELDS.join(', ')} come together (metric contract v2); missing ${missing.join(', ')}`,
      })
    }
    const counts = audio.response_opportunities
    if (counts === undefined) return
    const excluded = Object.values(audio.response_exclusion_reasons ?? {}).reduce(
      (sum, n) => sum + (n ?? 0),
      0,
    )
    const identities: [string, number, number][] = [
      [
        'response_total = response_count + no_response_count',
        counts.response_total,
        counts.response_count + counts.no_response_count,
      ],
      [
        'response_eligible_count = response_total + response_censored_count',
        counts.response_eligible_count,
        counts.response_total + counts.response_censored_count,
      ],
      [
        'caller_turn_count = response_eligible_count + response_excluded_count',
        counts.caller_turn_count,
        counts.response_eligible_count + counts.response_excluded_count,
      ],
      [
        'response_excluded_count = the sum of response_exclusion_reasons',
        counts.response_excluded_count,
        excluded,
      ],
    ]
    for (const [identity, actual, expected] of identities) {
      if (actual !== expected) {
        context.addIssue({
          code: 'custom',
          path: ['response_opportunities'],
          message: `counts disagree: ${identity} (${actual} != ${expected})`,
        })
      }
    }
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
  observability: z.looseObject({ [EXTENSION_KEY]: RowExtensionBlockSchema.optional() }).optional(),
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
export type AudioMetrics = z.infer<typeof AudioMetricsSchema>
export type DurationSummary = z.infer<typeof DurationSummarySchema>
export type ResponseOpportunities = z.infer<typeof ResponseOpportunitiesSchema>
export type ResponseExclusionReasons = z.infer<typeof ResponseExclusionReasonsSchema>
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number]
/** Audio metrics as measured (contract v2): every policy field present. */
export type MeasuredAudioMetrics = Required<AudioMetrics>
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
