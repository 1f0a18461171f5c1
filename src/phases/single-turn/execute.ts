// One single-turn scenario end to end: caller audio → session → collection → observation → grade → metrics →
// row, with the artifacts of §4.3. Any failure becomes an infrastructure_error row naming its stage, with the
// artifacts written so far kept and unknown counts null.

import type { ScenarioApplication } from '../../assistants/assistant-session.ts'
import { compactAssessment } from '../../grading/outcome.ts'
import { scenarioFactsOf } from '../../grading/scenario-facts.ts'
import { gradeSingleTurn } from '../../grading/single-turn.ts'
import { buildConsumption } from '../../reporting/consumption.ts'
import {
  buildResultRow,
  infrastructureErrorRow,
  NO_ARTIFACTS,
  validateResultRow,
} from '../../reporting/result-item.ts'
import type { ResultItem } from '../../reporting/result-schema.ts'
import { singleTurnObservability } from '../../reporting/single-turn-observability.ts'
import { contextMode, conversationContext, type Scenario, scenarioType } from '../../scenarios/index.ts'
import { artifactLayout, relativeArtifacts, writeDetails, writeSessionArtifacts } from './artifacts.ts'
import { prepareCallerAudio } from './caller-audio.ts'
import { type CollectedResponse, collectSingleTurn } from './collect.ts'
import { backendUsageRecords, buildObservation, interactionMetrics } from './observation.ts'
import { openScenarioSession, type ScenarioSession } from './scenario-session.ts'
import {
  type CallerAudio,
  describeError,
  type SingleTurnArtifactPaths,
  type SingleTurnEnv,
  type SingleTurnExecution,
  StageError,
  type StageFailure,
} from './types.ts'

export const DETAILS_SCHEMA_VERSION = '2.0'

export interface ExecuteOptions {
  signal?: AbortSignal
  /** The request exactly as it is to be streamed (the `callerAudio` fixture); default: prepared here. */
  callerAudio?: CallerAudio
  /** The scenario's application (the `toolState` fixture); default: a fresh one per session. */
  application?: ScenarioApplication
  /** Test seam: rewrites the finished row before validation (a corrupted row must become result_validation). */
  transformRow?: (row: Record<string, unknown>) => unknown
}

export async function executeSingleTurnScenario(
  scenario: Scenario,
  env: SingleTurnEnv,
  options: ExecuteOptions = {},
): Promise<SingleTurnExecution> {
  const written: SingleTurnArtifactPaths = { ...NO_ARTIFACTS }
  const signal = options.signal === undefined ? {} : { signal: options.signal }
  let session: ScenarioSession | null = null
  let stage: StageFailure['stage'] = 'input_setup'
  try {
    const callerAudio: CallerAudio = options.callerAudio ?? (await prepareCallerAudio(scenario, env, signal))
    stage = 'connection'
    session = await openScenarioSession(scenario, env, callerAudio, {
      ...signal,
      ...(options.application === undefined ? {} : { application: options.application }),
    })
    stage = 'response_collection'
    let collected: CollectedResponse
    try {
      collected = await collectSingleTurn(session, callerAudio, signal)
    } finally {
      session.detach()
    }
    stage = 'example_execution'
    return await gradeAndRecord(scenario, env, session, callerAudio, collected, written, options)
  } catch (error) {
    const failure = stageFailureOf(error, stage)
    if (session !== null) {
      session.detach()
      await session.assistant.close()
      try {
        await writeSessionArtifacts(env.runDirectory, scenario.id, session.timeline, session.trace, written)
      } catch {
        // Keep whatever was written; the row below still reports the original failure.
      }
    }
    return failedExecution(scenario, failure, written)
  }
}

/** The failure an error stands for: its own stage when it knows one, else the stage that was running. */
export function stageFailureOf(error: unknown, runningStage: StageFailure['stage']): StageFailure {
  return error instanceof StageError
    ? { stage: error.stage, message: error.message }
    : { stage: runningStage, message: describeError(error) }
}

/**
 * An execution that failed: an infrastructure_error row naming the stage, unknown counts null, and the
 * artifacts written so far (none when it failed before the session, e.g. preparing the caller audio).
 */
export function failedExecution(
  scenario: Pick<Scenario, 'id' | 'title'>,
  failure: StageFailure,
  written: SingleTurnArtifactPaths = { ...NO_ARTIFACTS },
): SingleTurnExecution {
  const row = infrastructureErrorRow({
    scenario_id: scenario.id,
    title: scenario.title,
    stage: failure.stage,
    message: failure.message,
    artifacts: relativeArtifacts(scenario.id, written),
  })
  return { scenarioId: scenario.id, observation: null, grade: null, row, artifacts: written, failure }
}

async function gradeAndRecord(
  scenario: Scenario,
  env: SingleTurnEnv,
  session: ScenarioSession,
  callerAudio: CallerAudio,
  collected: CollectedResponse,
  written: SingleTurnExecution['artifacts'],
  options: ExecuteOptions,
): Promise<SingleTurnExecution> {
  const observation = buildObservation(session, callerAudio, collected)
  const facts = scenarioFactsOf(scenario)
  const grade = gradeSingleTurn(observation, facts)
  const atMs = collected.endedAtMs
  session.trace.addEvaluation('evaluation.checks.assessed', atMs, {
    deterministic: Object.fromEntries(
      Object.entries(grade.dimension_grades).map(([name, dim]) => [name, dim.status]),
    ),
    tool_call_grade: grade.tool_call_grade,
  })
  session.trace.addEvaluation('evaluation.outcome.assessed', atMs, {
    assessment: compactAssessment(grade.assessment),
  })
  const audio = interactionMetrics(session, collected)
  const usageSeconds =
    collected.closeOutcome.type === 'closed'
      ? collected.closeOutcome.usageSeconds
      : (session.timeline.usage.at(-1)?.seconds ?? null)
  const consumption = buildConsumption({
    frontend_usage: usageSeconds === null ? null : { seconds: usageSeconds },
    usage_records: backendUsageRecords(session.assistant, env.settings.models.backend_model),
  })
  await writeSessionArtifacts(env.runDirectory, scenario.id, session.timeline, session.trace, written)

  const provenance = {
    execution_mode: env.settings.execution.mode === 'live' ? 'live' : 'offline_fixture',
    assistant_mode: env.architecture,
    model: env.settings.models.live_model,
    backend_model: env.settings.models.backend_model,
    audio_source: callerAudio.source,
    clock: session.timeline.mode,
  }
  const observability = singleTurnObservability({
    observation,
    scenario: facts,
    grade,
    audio_source: 'synthetic',
    provenance,
  })
  const rowInput = {
    scenario_id: scenario.id,
    title: scenario.title,
    raw_status: 'ok' as const,
    task_completed: grade.task_completed,
    semantic_quality: grade.semantic_quality,
    evidence: grade.evidence,
    audio,
    consumption,
    artifacts: relativeArtifacts(scenario.id, { ...written, details: artifactLayout(scenario.id).details }),
    // A response timeout is the assistant's failure, not ours: the session ran, the harness observed all of
    // it, and the assistant never completed an answer. Under the reference status mapping a `failed` row with
    // a failure stage reads as an infrastructure_error, so this row carries no error at all: it is a graded
    // `failed` (task_completed false via the required conversation_completed check), its termination reason
    // is `response_timeout` in observability.completion and in the details JSON, and its artifacts are kept.
    error: null,
    assessment: compactAssessment(grade.assessment),
    observability,
  }
  let row: ResultItem = buildResultRow(rowInput)
  if (options.transformRow !== undefined) {
    row = validateResultRow(options.transformRow(structuredClone(row) as Record<string, unknown>))
  }

  const lines = session.timeline.lines()
  await writeDetails(
    env.runDirectory,
    scenario.id,
    {
      schema_version: DETAILS_SCHEMA_VERSION,
      example_id: scenario.id,
      session_id: session.assistant.started.session.id,
      mode: provenance.execution_mode,
      scenario_type: scenarioType(scenario),
      context_mode: contextMode(scenario),
      conversation_context: conversationContext(scenario),
      initial_state: observation.initial_application_state,
      input_reference: callerAudio.text,
      input_projected: lines
        .filter((line) => line.role === 'user')
        .map((line) => line.text)
        .join(' '),
      assistant_projected: lines
        .filter((line) => line.role === 'assistant')
        .map((line) => line.text)
        .join(' '),
      assistant_turn_transcript: lines.filter((line) => line.role === 'assistant'),
      post_tool_assistant_text: observation.post_tool_assistant_text,
      backend_messages: [],
      delegations: session.timeline.delegations,
      expected_delegation: scenario.expected.delegation,
      expected_tool_calls: scenario.expected.tools.required,
      tool_calls: observation.requested_tool_calls,
      tool_executions: observation.tool_executions,
      final_state: observation.final_application_state,
      task_metrics: row.metrics.task,
      interaction_metrics: audio,
      efficiency_metrics: grade.efficiency,
      evidence_metrics: grade.evidence,
      rubric_metrics: null,
      dimension_grades: grade.dimension_grades,
      semantic_grades: grade.semantic_grades,
      judge_usage_events: [],
      assessment: grade.assessment,
      observability,
      termination_reason: collected.terminationReason,
      delegation_error: collected.delegationError,
      listener_problems: session.listenerProblems,
    },
    written,
  )
  const failure = row.status === 'infrastructure_error' ? (row.error as StageFailure) : null
  return { scenarioId: scenario.id, observation, grade, row, artifacts: { ...written }, failure }
}
