// The record stage, shared by every phase: consumption, artifacts, the scenario snapshot, the results row and the
// details JSON. Any failure before it becomes an infrastructure_error row through failedExecution. A judge that
// failed is recorded here, not thrown: every artifact and the details (observation and judge usage included) are
// written, and the row is an infrastructure_error at stage semantic_judge with its measured metrics kept.
// The judge's usage goes to the details (judge_usage_events), never into the row's consumption.
import { computeVoiceMetrics, voiceExpectationOf } from '../../metrics/voice-metrics.ts'
import { buildConsumption } from '../../reporting/consumption.ts'
import { pacingErrorOf } from '../../reporting/extensions/pacing.ts'
import { withPacing } from '../../reporting/extensions/pacing-row.ts'
import { infrastructureErrorRow, NO_ARTIFACTS, validateResultRow } from '../../reporting/result-item.ts'
import type { ResultItem } from '../../reporting/result-schema.ts'
import { withTrial } from '../../reporting/row-key.ts'
import { contextMode, conversationContext, type Scenario, scenarioType } from '../../scenarios/index.ts'
import {
  type ArtifactPaths,
  artifactLayout,
  artifactNameOf,
  relativeArtifacts,
  writeDetails,
  writeSessionArtifacts,
} from './artifacts.ts'
import type { Assessed } from './assess.ts'
import type { CallerAudio, CallerRecording } from './caller.ts'
import { DETAILS_SCHEMA_VERSION, type ScenarioDetails, ScenarioDetailsSchema } from './details.ts'
import type { ScenarioEnv, SingleTurnExecution } from './execution.ts'
import { buildGradedRow, gradedDetailsFields } from './graded-row.ts'
import type { ObservedConversation } from './observed.ts'
import { writeScenarioSnapshot } from './scenario-snapshot.ts'
import type { StageFailure } from './stage.ts'

export interface RecordOptions {
  /** Test seam: rewrites the finished row before validation (a corrupted row must become result_validation). */
  transformRow?: (row: Record<string, unknown>) => unknown
}

export async function recordExecution(
  scenario: Scenario,
  env: ScenarioEnv,
  caller: CallerAudio,
  observed: ObservedConversation,
  assessed: Assessed,
  written: ArtifactPaths,
  options: RecordOptions = {},
): Promise<SingleTurnExecution> {
  const { facts, grade, semantic } = assessed
  const { observation, timeline } = observed
  const consumption = buildConsumption({
    frontend_usage:
      observed.frontendUsageSeconds === null ? null : { seconds: observed.frontendUsageSeconds },
    usage_records: observed.backendUsage,
  })
  const artifactName = artifactNameOf(scenario, env)
  await writeSessionArtifacts(env.runDirectory, artifactName, timeline, observed.trace, written)
  await writeScenarioSnapshot(env.runDirectory, scenario)

  const mode = env.settings.execution.mode === 'live' ? 'live' : 'offline_fixture'
  let row: ResultItem = buildGradedRow({
    scenario_id: scenario.id,
    title: scenario.title,
    facts,
    observation,
    grade,
    semantic,
    audio: observed.interaction,
    // Measured against the evaluator-only expectation after the session; the assistant never sees it.
    voice: computeVoiceMetrics(observed.voice, voiceExpectationOf(scenario)),
    consumption,
    artifacts: relativeArtifacts(artifactName, { ...written, details: artifactLayout(artifactName).details }),
    audio_source: env.callerSource.audioSource,
    provenance: {
      execution_mode: mode,
      assistant_mode: env.architecture.name,
      model: env.settings.models.live_model,
      backend_model: env.settings.models.backend_model,
      audio_source: caller.source,
      clock: observed.clockMode,
    },
    recording: caller.recording === undefined ? undefined : rowRecordingOf(caller.recording),
  })
  row = withTrial(row, env.trial ?? null)
  row = withPacing(row, pacingErrorOf(observed.frameLateness, env.settings.execution.pacing_warning_ms))
  if (options.transformRow !== undefined) {
    row = validateResultRow(options.transformRow(structuredClone(row) as Record<string, unknown>))
  }

  const lines = timeline.lines()
  const spoken = (role: 'user' | 'assistant') => lines.filter((line) => line.role === role)
  const details: ScenarioDetails = ScenarioDetailsSchema.parse({
    schema_version: DETAILS_SCHEMA_VERSION,
    example_id: scenario.id,
    session_id: observed.sessionId,
    mode,
    assistant_mode: env.architecture.name,
    audio_source: env.callerSource.audioSource,
    caller_audio: caller.source,
    recording: caller.recording ?? null,
    scenario_type: scenarioType(scenario),
    context_mode: contextMode(scenario),
    conversation_context: conversationContext(scenario),
    initial_state: observation.initial_application_state,
    input_reference: caller.text,
    input_projected: spoken('user')
      .map((line) => line.text)
      .join(' '),
    assistant_projected: spoken('assistant')
      .map((line) => line.text)
      .join(' '),
    assistant_turn_transcript: spoken('assistant'),
    post_tool_assistant_text: observation.post_tool_assistant_text,
    backend_messages: [],
    public_business_facts: env.architecture.application.publicFacts(),
    delegations: timeline.delegations,
    expected_delegation: scenario.expected.delegation,
    expected_tool_calls: scenario.expected.tools.required,
    tool_calls: observation.requested_tool_calls,
    tool_executions: observation.tool_executions,
    final_state: observation.final_application_state,
    observation,
    interaction_metrics: observed.interaction,
    ...gradedDetailsFields(grade, semantic, row),
    termination_reason: observation.termination_reason,
    delegation_error: observed.delegationError,
    listener_problems: observed.listenerProblems,
    faults: observation.faults ?? null,
  })
  await writeDetails(env.runDirectory, artifactName, details, written)
  const failure = row.status === 'infrastructure_error' ? (row.error as StageFailure) : null
  return {
    interaction: 'single_turn',
    scenarioId: scenario.id,
    observation,
    grade,
    row,
    artifacts: { ...written },
    failure,
  }
}

/** The failure row alone, whatever the phase: infrastructure_error naming the stage, unknown counts null. */
export function failureRow(
  scenario: Pick<Scenario, 'id' | 'title'>,
  failure: StageFailure,
  written: ArtifactPaths,
  trial: number | null = null,
): ResultItem {
  const row = infrastructureErrorRow({
    scenario_id: scenario.id,
    title: scenario.title,
    stage: failure.stage,
    message: failure.message,
    artifacts: relativeArtifacts(artifactNameOf(scenario, { trial }), written),
  })
  return withTrial(row, trial)
}

/** WALK rows echo the recording as the dataset gives it (§4.1); the absolute file stays in the details. */
export function rowRecordingOf(recording: CallerRecording): NonNullable<ResultItem['recording']> {
  const { id, path, condition, metadata } = recording
  return { id, path, condition, metadata }
}

/**
 * An execution that failed: an infrastructure_error row naming the stage, unknown counts null, and the
 * artifacts written so far (none when it failed before the session, e.g. preparing the caller audio).
 */
export function failedExecution(
  scenario: Pick<Scenario, 'id' | 'title'>,
  failure: StageFailure,
  written: ArtifactPaths = { ...NO_ARTIFACTS },
  trial: number | null = null,
): SingleTurnExecution {
  const row = failureRow(scenario, failure, written, trial)
  return {
    interaction: 'single_turn',
    scenarioId: scenario.id,
    observation: null,
    grade: null,
    row,
    artifacts: written,
    failure,
  }
}
