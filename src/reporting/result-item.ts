// One results.json row: built from grading, metrics and observation facts, then validated. A row that does not
// validate never breaks the report: it becomes an infrastructure_error at stage `result_validation`, keeps its
// artifacts, and the other rows are untouched.

import { parseCountPair } from '../metrics/counts.ts'
import type { EvidenceMetrics } from '../metrics/evidence.ts'
import type { InteractionMetrics } from '../metrics/interaction.ts'
import { ResultValidationError } from './errors.ts'
import {
  EXTENSION_KEY,
  RowExtensionBlockSchema,
  type RowExtensions,
  rowExtensionBlock,
} from './extensions/registry.ts'
import {
  type AssessmentSummary,
  type AudioMetrics,
  AudioMetricsSchema,
  type Consumption,
  ConsumptionSchema,
  type ResultArtifacts,
  ResultArtifactsSchema,
  type ResultError,
  type ResultItem,
  ResultItemSchema,
  type TaskMetrics,
} from './result-schema.ts'
import { type RawResultStatus, resolveResultStatus } from './result-status.ts'

export const TASK_COMPLETED_MESSAGE = 'task_completed must be an explicitly observed boolean'

export interface ResultRowInput {
  scenario_id: string
  title?: string
  /** What the phase recorded: `ok` for a graded execution, `error`/`infrastructure_error` for a broken one. */
  raw_status: RawResultStatus
  /** The diagnostic verdict; an infrastructure row keeps it. Typed unknown because it is checked, not trusted. */
  task_completed: unknown
  semantic_quality: TaskMetrics['semantic_quality']
  /** Accuracies and count pairs; null when nothing was observed (every value reported as null). */
  evidence: EvidenceMetrics | null
  /** null when the audio could not be measured. */
  audio: InteractionMetrics | null
  consumption: Consumption
  artifacts: ResultArtifacts
  error: ResultError | null
  assessment?: AssessmentSummary
  recording?: Record<string, unknown>
  observability?: Record<string, unknown>
  validity?: Record<string, unknown>
  /** What this row adds beyond the reference's shapes; written to `observability.live_evals` (extensions/). */
  extensions?: RowExtensions
}

/**
 * The audio of a row whose audio was not measured, as the reference writes it: the five metrics null and no
 * contract-v2 policy fields (nothing was measured under a policy).
 */
const UNMEASURED_AUDIO: AudioMetrics = {
  response_rate: null,
  response_latency_ms: null,
  interruption_rate: null,
  speaking_duration_ms: null,
  floor_hold_silence_ms: null,
}

export const NO_ARTIFACTS: ResultArtifacts = {
  input_audio: null,
  output_audio: null,
  conversation_audio: null,
  conversation_transcript: null,
  events: null,
  details: null,
}

function taskMetrics(input: ResultRowInput): Record<string, unknown> {
  const evidence = input.evidence
  return {
    task_completed: input.task_completed,
    semantic_quality: input.semantic_quality,
    tool_accuracy: evidence?.tool_accuracy ?? null,
    tool_calls: parseCountPair(evidence?.tool_calls),
    delegation_accuracy: evidence?.delegation_accuracy ?? null,
    delegations: parseCountPair(evidence?.delegations),
    turns: parseCountPair(evidence?.turns),
  }
}

/** Builds and validates one row. Never throws for bad row data: see validateResultRow. */
export function buildResultRow(input: ResultRowInput): ResultItem {
  const failureStage = input.error?.stage ?? null
  let status: string
  try {
    status = resolveResultStatus(
      input.raw_status,
      // Only a real `true` can pass; any other value is refused below by validateResultRow.
      input.task_completed === true,
      failureStage,
    )
  } catch (error) {
    if (!(error instanceof ResultValidationError)) throw error
    return resultValidationFailure(
      { scenario_id: input.scenario_id, title: input.title, artifacts: input.artifacts },
      error.message,
    )
  }
  const row: Record<string, unknown> = {
    scenario_id: input.scenario_id,
    status,
    metrics: {
      task: taskMetrics(input),
      audio: input.audio ?? UNMEASURED_AUDIO,
      consumption: input.consumption,
    },
    artifacts: input.artifacts,
    // An infrastructure row always says where it failed, even when nobody recorded it.
    error:
      status === 'infrastructure_error' ? (input.error ?? { stage: 'unknown', message: '' }) : input.error,
  }
  for (const key of ['title', 'recording', 'assessment', 'observability', 'validity'] as const) {
    if (input[key] !== undefined) row[key] = input[key]
  }
  const block = rowExtensionBlock(input.extensions)
  if (block !== undefined) row.observability = { ...input.observability, [EXTENSION_KEY]: block }
  return validateResultRow(row)
}

/** A failure before anything was observed (input setup, connection): every count and accuracy is null. */
export function infrastructureErrorRow(options: {
  scenario_id: string
  title?: string
  stage: string
  message: string
  artifacts?: ResultArtifacts
  consumption?: Consumption
  extensions?: RowExtensions
}): ResultItem {
  return buildResultRow({
    scenario_id: options.scenario_id,
    ...(options.title === undefined ? {} : { title: options.title }),
    raw_status: 'infrastructure_error',
    task_completed: false,
    semantic_quality: { score: null, dimensions: {} },
    evidence: null,
    audio: null,
    consumption: options.consumption ?? { frontend: {}, backend: {} },
    artifacts: options.artifacts ?? NO_ARTIFACTS,
    error: { stage: options.stage, message: options.message },
    ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
  })
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}

function describeIssues(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[]
}): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join('.') || '(row)'}: ${issue.message}`)
    .join('; ')
}

/**
 * The replacement row for an invalid one: keeps what can be kept (id, title, artifacts, audio, consumption, and
 * the extension block, so a repeated trial that failed validation keeps its row key).
 */
function resultValidationFailure(row: unknown, message: string): ResultItem {
  const scenarioId = field(row, 'scenario_id')
  const title = field(row, 'title')
  const metrics = field(row, 'metrics')
  const artifacts = ResultArtifactsSchema.safeParse(field(row, 'artifacts'))
  const audio = AudioMetricsSchema.safeParse(field(metrics, 'audio'))
  const consumption = ConsumptionSchema.safeParse(field(metrics, 'consumption'))
  const replacement: ResultItem = {
    scenario_id: typeof scenarioId === 'string' && scenarioId !== '' ? scenarioId : 'unknown',
    status: 'infrastructure_error',
    metrics: {
      task: {
        task_completed: false,
        semantic_quality: { score: null, dimensions: {} },
        tool_accuracy: null,
        tool_calls: null,
        delegation_accuracy: null,
        delegations: null,
        turns: null,
      },
      audio: audio.success ? audio.data : UNMEASURED_AUDIO,
      consumption: consumption.success ? consumption.data : { frontend: {}, backend: {} },
    },
    artifacts: artifacts.success ? artifacts.data : NO_ARTIFACTS,
    error: { stage: 'result_validation', message },
  }
  if (typeof title === 'string') replacement.title = title
  const block = RowExtensionBlockSchema.safeParse(field(field(row, 'observability'), EXTENSION_KEY))
  if (block.success) replacement.observability = { [EXTENSION_KEY]: block.data }
  return replacement
}

/**
 * Validates a row against schema 2.0. `task_completed` must be a real boolean ("true", 0, 1, null, [] or a missing
 * value are not observations). An invalid row is replaced, never mutated, by an infrastructure_error row at stage
 * `result_validation` whose message says what was wrong.
 */
export function validateResultRow(row: unknown): ResultItem {
  const taskCompleted = field(field(field(row, 'metrics'), 'task'), 'task_completed')
  if (typeof taskCompleted !== 'boolean') return resultValidationFailure(row, TASK_COMPLETED_MESSAGE)
  const parsed = ResultItemSchema.safeParse(row)
  if (!parsed.success)
    return resultValidationFailure(row, `result row is invalid: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/**
 * A row that failed validation after the execution had already failed: the first failure is what went wrong,
 * the malformed row only followed from it, so the row keeps the primary `{stage, message}` (not
 * `result_validation`) with `task_completed` false. Any other row is returned as it is.
 */
export function withPrimaryFailure(row: ResultItem, primary: ResultError | null): ResultItem {
  if (primary === null || row.status !== 'infrastructure_error' || row.error?.stage !== 'result_validation') {
    return row
  }
  return {
    ...row,
    metrics: { ...row.metrics, task: { ...row.metrics.task, task_completed: false } },
    error: { stage: primary.stage, message: primary.message },
  }
}
