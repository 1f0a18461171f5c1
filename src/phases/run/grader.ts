// RUN's assess and record stages. Assess: the RUN task decision (grading/run: tool evidence, procedure, outcome
// with strict_tools false and the critical-procedure check), then the semantic judge where the run has one and
// the simulation was valid (an invalid simulation is never judged). Record: the conversation's artifacts (stereo
// conversation.wav, both mono tracks, the transcript, the event trace), the scenario snapshot, the debugging
// artifacts when asked for, the row and the details JSON.

import type { RunSettings } from '../../config/index.ts'
import { judgeScenarioFactsOf } from '../../grading/judge/index.ts'
import { judgeRunGrade } from '../../grading/run/run-judge.ts'
import { gradeRun, type JudgedRunGrade, unjudgedRunGrade } from '../../grading/run/run-outcome.ts'
import { scenarioFactsOf } from '../../grading/scenario-facts.ts'
import { assistantBackendUsageRecords, buildConsumption } from '../../reporting/consumption.ts'
import { pacingErrorOf } from '../../reporting/extensions/pacing.ts'
import { withPacing } from '../../reporting/extensions/pacing-row.ts'
import { NO_ARTIFACTS, validateResultRow, withPrimaryFailure } from '../../reporting/result-item.ts'
import type { ResultItem } from '../../reporting/result-schema.ts'
import { conversationContext, type Scenario, scenarioType } from '../../scenarios/index.ts'
import {
  type ArtifactPaths,
  artifactLayout,
  artifactNameOf,
  relativeArtifacts,
  writeDetails,
  writeSessionArtifacts,
} from '../engine/artifacts.ts'
import type { MultiTurnExecution, ScenarioEnv } from '../engine/execution.ts'
import {
  NO_SEMANTIC_ASSESSMENT,
  type SemanticAssessment,
  semanticJudgeDetails,
} from '../engine/judge-stage.ts'
import type { ConversationGrader } from '../engine/phase-module.ts'
import { failureRow, type RecordOptions } from '../engine/record.ts'
import { writeScenarioSnapshot } from '../engine/scenario-snapshot.ts'
import type { StageFailure } from '../engine/stage.ts'
import { transcriptWithCutLine } from './cut-off.ts'
import { type DebugArtifactPaths, writeDebugArtifacts } from './debug-artifacts.ts'
import { RUN_DETAILS_SCHEMA_VERSION, RunDetailsSchema } from './details.ts'
import type { RunObserved } from './observed.ts'
import { buildRunRow } from './row.ts'

export interface AssessedRun {
  grade: JudgedRunGrade
  semantic: SemanticAssessment
}

const failedRequiredChecks = (grade: JudgedRunGrade) =>
  grade.assessment.checks
    .filter((check) => check.required && check.status === 'failed')
    .map((check) => check.id)

/**
 * The deterministic RUN grade, then the judge's part: none offline or without grading, and none for an invalid
 * simulation (it did not test the assistant, so there is nothing to judge).
 */
export async function assessRun(
  scenario: Scenario,
  observed: RunObserved,
  env: Pick<ScenarioEnv<RunSettings>, 'judge' | 'architecture' | 'settings'>,
): Promise<AssessedRun> {
  const endedAtMs = observed.conversation.call.endedAtMs
  const deterministic = unjudgedRunGrade(
    gradeRun(observed.observation, scenario.expected, {
      expectsVerification: scenarioFactsOf(scenario).expects_verification === true,
      maxDeadAirMs: env.settings.grading.max_dead_air_ms,
      maxDurationSeconds: env.settings.simulation.max_duration_seconds,
    }),
    scenarioFactsOf(scenario),
  )
  observed.trace.addEvaluation('evaluation.checks.assessed', endedAtMs, {
    task_completed: deterministic.task_completed,
    failed_checks: failedRequiredChecks(deterministic),
  })
  // An invalid simulation or a call whose evaluation failed is not judged: its row is an infrastructure_error.
  const judge = observed.validity.status === 'valid' && observed.failure === null ? (env.judge ?? null) : null
  if (judge === null) return { grade: deterministic, semantic: NO_SEMANTIC_ASSESSMENT }
  const judged = await judgeRunGrade(
    judgeScenarioFactsOf(scenario),
    deterministic,
    { observation: observed.observation, business_facts: env.architecture.application.publicFacts() },
    judge,
  )
  observed.trace.addEvaluation('evaluation.semantic_judge.completed', endedAtMs, {
    assessed: judged.semantic.judgement?.assessed ?? false,
    semantic_quality: judged.grade.semantic_quality.score,
    requests: judged.semantic.usage_events.length,
    error: judged.semantic.failure,
  })
  observed.trace.addEvaluation('evaluation.outcome.assessed', endedAtMs, {
    task_completed: judged.grade.task_completed,
    failed_checks: failedRequiredChecks(judged.grade),
  })
  return judged
}

async function recordRun(
  scenario: Scenario,
  env: ScenarioEnv<RunSettings>,
  observed: RunObserved,
  assessed: AssessedRun,
  written: ArtifactPaths,
  options: RecordOptions,
): Promise<MultiTurnExecution> {
  const { conversation, observation, timeline } = observed
  // A live call carries the caller's record, the observer's and the real clock; an offline one has none of them.
  const live = 'caller' in conversation ? conversation : null
  const { grade, semantic } = assessed
  const artifactName = artifactNameOf(scenario, env)
  await writeSessionArtifacts(env.runDirectory, artifactName, timeline, observed.trace, written)
  await writeScenarioSnapshot(env.runDirectory, scenario)
  let debug: DebugArtifactPaths | null = null
  if (env.settings.simulation.debug_artifacts) {
    debug = await writeDebugArtifacts(
      env.runDirectory,
      scenario.id,
      conversation,
      env.settings.simulation.tick_ms,
    )
  }
  // The evaluation's own failure after the call (live pending work or cleanup, or the judge): it wins over
  // anything that follows from it, a malformed row included (behaviour #53).
  const primaryFailure = observed.failure ?? semantic.failure
  let row: ResultItem = buildRunRow(scenario, conversation, grade, observed.interaction, {
    artifacts: relativeArtifacts(artifactName, { ...written, details: artifactLayout(artifactName).details }),
    semanticQuality: grade.semantic_quality,
    failure: primaryFailure,
    validity: observed.validity,
    callerMode: observed.callerMode,
    turns: observed.turns,
    voice: observed.voice,
    faults: observation.faults ?? null,
    // The assistant's backend only (offline too: the test servers report estimated usage); never the caller's,
    // the observer's or the judge's.
    backendConsumption: buildConsumption({
      frontend_usage: null,
      usage_records: assistantBackendUsageRecords(
        conversation.call.assistant.backendUsage(),
        env.settings.models.backend_model,
      ),
    }).backend,
  })
  // The harness's own timing error: a live call's frames on the real-time clock; the offline call is virtual.
  row = withPacing(
    row,
    pacingErrorOf(live?.relay_lateness_ms ?? null, env.settings.execution.pacing_warning_ms),
  )
  if (options.transformRow !== undefined) {
    row = validateResultRow(options.transformRow(structuredClone(row) as Record<string, unknown>))
  }
  const rowValidation = row.error?.stage === 'result_validation' ? row.error.message : null
  row = withPrimaryFailure(row, primaryFailure)
  const details = RunDetailsSchema.parse({
    schema_version: RUN_DETAILS_SCHEMA_VERSION,
    example_id: scenario.id,
    session_id: observed.sessionId,
    mode: env.settings.execution.mode === 'live' ? 'live' : 'offline_fixture',
    assistant_mode: env.architecture.name,
    caller_mode: observed.callerMode,
    scenario_type: scenarioType(scenario),
    conversation_context: conversationContext(scenario),
    caller_utterances: conversation.plan.map(({ text, action, startMs, endMs }) => ({
      text,
      action,
      start_ms: startMs,
      end_ms: endMs,
    })),
    caller_actions: conversation.caller_actions,
    transcript: transcriptWithCutLine(timeline.lines(), conversation.assistant_cut_off),
    delegations: timeline.delegations,
    initial_state: observation.initial_application_state,
    final_state: observation.final_application_state,
    tool_executions: observation.tool_executions,
    backend_messages: [...(observation.backend_messages ?? [])],
    observation,
    interaction_metrics: observed.interaction.metrics,
    turn_metrics: observed.turns,
    tool_evidence: grade.tools,
    procedure: grade.procedure,
    outcome_state_satisfied: grade.outcome_state_satisfied,
    semantic_grades: grade.semantic_grades,
    judge_usage_events: semantic.usage_events,
    semantic_judge: semanticJudgeDetails(semantic),
    assessment: grade.assessment,
    observability: row.observability ?? {},
    validity: observed.validity,
    // §6: a runtime error makes the task an error whose termination reason is the failure stage.
    task_status: primaryFailure !== null ? 'error' : grade.task_completed ? 'passed' : 'failed',
    termination_reason: primaryFailure?.stage ?? observation.termination_reason,
    completion_policy: conversation.completion_policy,
    finish_observed_ms: conversation.finish_observed_ms,
    completion_signal: conversation.completion_signal,
    drain_revocations: conversation.drain_revocations,
    faults: observation.faults ?? null,
    interventions: conversation.interventions,
    audio_realism:
      live === null ? (conversation.call.realism?.metadata ?? null) : live.audio_realism.metadata,
    caller:
      live === null
        ? null
        : {
            model: live.caller.model,
            voice: live.caller.voice,
            audio_duration_ms: live.caller.audio_duration_ms,
            backend_usage: live.caller.backend_usage,
          },
    observer: live?.observer ?? null,
    clock_mode: live?.clock_mode ?? 'virtual',
    failure: primaryFailure,
    result_validation: rowValidation,
    debug_artifacts: debug,
  })
  await writeDetails(env.runDirectory, artifactName, details, written)
  const failure = row.status === 'infrastructure_error' ? (row.error as StageFailure) : null
  return {
    interaction: 'multi_turn',
    scenarioId: scenario.id,
    observation,
    grade,
    row,
    artifacts: { ...written },
    failure,
  }
}

export const runGrader: ConversationGrader<RunObserved, MultiTurnExecution, RunSettings> = {
  async grade(scenario, env, _caller, observed, written, options) {
    const assessed = await assessRun(scenario, observed, env)
    return recordRun(scenario, env, observed, assessed, written, options)
  },
  failed(scenario, failure, written = { ...NO_ARTIFACTS }, trial = null) {
    return {
      interaction: 'multi_turn',
      scenarioId: scenario.id,
      observation: null,
      grade: null,
      row: failureRow(scenario, failure, written, trial),
      artifacts: written,
      failure,
    }
  },
}
