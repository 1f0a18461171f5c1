// One RUN results.json row (§4.1) from a graded conversation: the task metrics from the RUN grade and the golden
// path, the semantic quality when a judge ran, the interaction metrics, the compact assessment, RUN's observability
// block (agenda, caller actions, completion policy, procedure diagnostics), the caller simulation's validity, and
// the turn metrics beyond the reference (extension `run_turns`). An invalid simulation is an infrastructure_error
// at caller_simulation (its metrics kept as diagnostics); a judge that failed is one at semantic_judge.

import type { FaultsRecord } from '../../faults/events.ts'
import { checksExtensionOf, compactAssessment, isBeyondReferenceCheck } from '../../grading/outcome.ts'
import type { RunGrade } from '../../grading/run/run-outcome.ts'
import { buildEvidenceMetrics } from '../../metrics/evidence.ts'
import { runGolden } from '../../metrics/golden.ts'
import type { InteractionAnalysis } from '../../metrics/interaction.ts'
import type { SemanticQuality } from '../../metrics/semantic-quality.ts'
import { type CallTimeline, computeVoiceMetrics, voiceExpectationOf } from '../../metrics/voice-metrics.ts'
import { executionSummaries } from '../../observability/observation.ts'
import type { RunTurnMetrics } from '../../reporting/extensions/run-turns.ts'
import { buildResultRow, NO_ARTIFACTS } from '../../reporting/result-item.ts'
import type { ResultArtifacts, ResultItem } from '../../reporting/result-schema.ts'
import type { Scenario } from '../../scenarios/scenario.ts'
import { NON_SUBSTANTIVE_ACTIONS } from '../../scenarios/simulation.ts'
import type { PlayedConversation } from './observed.ts'
import { totalTurns } from './total-turns.ts'
import { invalidSimulationMessage, OFFLINE_CALLER_VALIDITY, type SimulationValidity } from './validity.ts'

export interface RunRowOptions {
  artifacts?: ResultArtifacts
  /** The judge's semantic quality; default unknown (no judge ran). */
  semanticQuality?: SemanticQuality
  /**
   * A failure of the evaluation after the call was played: pending work or cleanup (live), or the judge that could
   * not judge (stage semantic_judge). The row is then an infrastructure_error with its measured metrics kept.
   */
  failure?: { stage: string; message: string } | null
  validity?: SimulationValidity
  callerMode?: 'offline_fixture' | 'gpt-live'
  turns?: RunTurnMetrics
  /** The call as the voice metrics read it (observe.ts); absent, the row carries no voice_metrics. */
  voice?: CallTimeline | undefined
  /** The assistant backend's token usage (the row's consumption.backend). */
  backendConsumption?: ResultItem['metrics']['consumption']['backend']
  /** Under a fault profile: what it injected (the row's `faults` extension). */
  faults?: FaultsRecord | null
}

/**
 * The agenda items the offline scripted caller said: it says one line per item other than wait/finish, in agenda
 * order, between its opening and its goodbye (offline-caller.ts), so the lines it got to say name the items.
 */
function deliveredAgendaItems(spoken: readonly { id: string }[], conversation: PlayedConversation): string[] {
  const said = conversation.plan.filter(
    (utterance) =>
      utterance.interventionId === undefined && utterance.action !== 'OPENING' && utterance.action !== 'STOP',
  ).length
  return spoken.slice(0, said).map((item) => item.id)
}

export function buildRunRow(
  scenario: Scenario,
  conversation: PlayedConversation,
  grade: RunGrade,
  interaction: InteractionAnalysis,
  options: RunRowOptions = {},
): ResultItem {
  const { call } = conversation
  const validity = options.validity ?? OFFLINE_CALLER_VALIDITY
  const invalid = validity.status === 'invalid'
  // A runtime failure (§6) is what the row reports: task_completed false and the stage as the termination
  // reason. An invalid simulation is not one: its graded metrics stay as diagnostics (§4.1).
  const runtimeFailure = invalid ? null : (options.failure ?? null)
  const error = invalid
    ? { stage: 'caller_simulation', message: invalidSimulationMessage(validity) }
    : runtimeFailure
  const delegationCount = new Set(call.delegationIds).size
  const speech = call.timeline.speechIntervals()
  const callerTurns = interaction.caller_turns.length
  const assistantTurns = speech.assistant.length
  const evidence = buildEvidenceMetrics({
    task: {
      prohibited_tool_call_count: grade.tools.prohibited_tool_call_count,
      matched_tool_call_count: grade.tools.matched_tool_call_count,
      tool_call_coverage: grade.tools.tool_call_coverage,
      delegation_required: scenario.expected.delegation === 'required',
      delegation_prohibited: scenario.expected.delegation === 'forbidden',
    },
    efficiency: {
      unique_tool_invocation_count: grade.tools.unique_tool_invocation_count,
      matched_tool_call_count: grade.tools.matched_tool_call_count,
      delegation_count: delegationCount,
      total_turns: totalTurns(
        conversation.plan,
        speech.assistant.map((interval) => interval.startMs),
      ),
    },
    golden: { ...runGolden(scenario.expected) },
  })
  const agendaItems = scenario.simulation_parameters?.agenda ?? []
  const substantive = agendaItems.filter((item) => !NON_SUBSTANTIVE_ACTIONS.has(item.action))
  const completed = new Set(
    (options.callerMode ?? 'offline_fixture') === 'offline_fixture'
      ? deliveredAgendaItems(substantive, conversation)
      : [],
  )
  const assessment = compactAssessment(grade.assessment)
  return buildResultRow({
    scenario_id: scenario.id,
    title: scenario.title,
    // A failure with a stage is a raw `failed`, which the status mapping reads as infrastructure_error.
    raw_status: error === null ? 'ok' : 'failed',
    task_completed: runtimeFailure === null ? grade.task_completed : false,
    semantic_quality: options.semanticQuality ?? { score: null, dimensions: {} },
    evidence,
    audio: interaction.metrics,
    consumption: {
      frontend:
        call.closeOutcome.type === 'closed'
          ? { audio_duration_ms: call.closeOutcome.usageSeconds * 1000 }
          : {},
      backend: options.backendConsumption ?? {},
    },
    artifacts: options.artifacts ?? NO_ARTIFACTS,
    error,
    assessment,
    observability: {
      // As the reference reports it: every item in the total; offline, the items the scripted caller delivered are
      // completed; live, whether the caller's items held is not tracked, so none is claimed completed.
      agenda: {
        total: agendaItems.length,
        completed: substantive.filter((item) => completed.has(item.id)).map((item) => item.id),
        skipped: [],
        bypassed: [],
        pending_required: substantive
          .filter((item) => item.required && !completed.has(item.id))
          .map((item) => item.id),
      },
      interaction: {
        mode: 'multi_turn',
        audio_source: 'dual_gpt_live',
        caller_mode: options.callerMode ?? 'offline_fixture',
        caller_actions: conversation.caller_actions,
        attribution: 'post_hoc_audio_and_transcript',
        assistant_turns: assistantTurns,
        caller_turns: callerTurns,
        delegations: delegationCount,
      },
      tools: {
        executed: executionSummaries(grade.tools.executions),
        expected_count: grade.tools.expected_tool_call_count,
        matched_count: grade.tools.matched_tool_call_count,
        unexpected_completed_count: grade.tools.unexpected_completed_tool_invocation_count,
        failed_count: grade.tools.failed_tool_invocation_count,
      },
      completion: {
        termination_reason: runtimeFailure?.stage ?? conversation.termination_reason,
        policy: conversation.completion_policy,
        passed: assessment.passed,
        source: assessment.source,
        rationale: assessment.rationale,
        // The reference's checks only; ours beyond it are reported with their evidence in the extension block.
        failed_checks: grade.assessment.checks
          .filter((check) => check.required && check.status === 'failed' && !isBeyondReferenceCheck(check.id))
          .map((check) => check.id),
        failed_procedure_steps: grade.procedure?.failed_steps ?? [],
        procedure_is_diagnostic: true,
      },
      scenario: { id: scenario.id, type: scenario.type },
    },
    validity,
    extensions: {
      run_turns: options.turns,
      // Measured against the evaluator-only expectation after the call; the assistant never sees it.
      voice_metrics:
        options.voice === undefined
          ? undefined
          : computeVoiceMetrics(options.voice, voiceExpectationOf(scenario)),
      checks: checksExtensionOf(grade.assessment),
      faults: options.faults ?? undefined,
    },
  })
}
