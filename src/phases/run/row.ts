// One RUN results.json row (§4.1) from a graded offline conversation: the task metrics from the RUN grade and
// the golden path, the interaction metrics, the compact assessment, RUN's observability block (agenda, caller
// actions, completion policy, procedure diagnostics) and the caller simulation's validity. The engine's shared
// record stage can call this in place of its single-turn row once RUN is registered.
import { compactAssessment } from '../../grading/outcome.ts'
import type { RunGrade } from '../../grading/run/run-outcome.ts'
import { buildEvidenceMetrics } from '../../metrics/evidence.ts'
import { runGolden } from '../../metrics/golden.ts'
import type { InteractionAnalysis } from '../../metrics/interaction.ts'
import { executionSummaries } from '../../observability/observation.ts'
import { buildResultRow, NO_ARTIFACTS } from '../../reporting/result-item.ts'
import type { ResultArtifacts, ResultItem } from '../../reporting/result-schema.ts'
import type { Scenario } from '../../scenarios/scenario.ts'
import { NON_SUBSTANTIVE_ACTIONS } from '../../scenarios/simulation.ts'
import type { OfflineConversation } from './conversation.ts'

/** Offline, the caller has no session of its own, so it cannot delegate: the simulation is valid by construction. */
const OFFLINE_VALIDITY = {
  scope: 'frontend_only_caller_delegation',
  status: 'valid',
  target_metrics_eligible: true,
  reason: null,
  unexpected_delegation_count: 0,
  delegation_ids: [],
}

export function buildRunRow(
  scenario: Scenario,
  conversation: OfflineConversation,
  grade: RunGrade,
  interaction: InteractionAnalysis,
  artifacts: ResultArtifacts = NO_ARTIFACTS,
): ResultItem {
  const { call } = conversation
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
      total_turns: callerTurns + assistantTurns,
    },
    golden: { ...runGolden(scenario.expected) },
  })
  const agenda = (scenario.simulation_parameters?.agenda ?? []).filter(
    (item) => !NON_SUBSTANTIVE_ACTIONS.has(item.action),
  )
  const assessment = compactAssessment(grade.assessment)
  return buildResultRow({
    scenario_id: scenario.id,
    title: scenario.title,
    raw_status: 'ok',
    task_completed: grade.task_completed,
    semantic_quality: { score: null, dimensions: {} },
    evidence,
    audio: interaction.metrics,
    consumption: {
      frontend:
        call.closeOutcome.type === 'closed'
          ? { audio_duration_ms: call.closeOutcome.usageSeconds * 1000 }
          : {},
      backend: {},
    },
    artifacts,
    error: null,
    assessment,
    observability: {
      // The scripted caller says every item's line, but whether the item's completion condition held is a
      // judgement the offline run cannot make: nothing is claimed completed.
      agenda: {
        total: agenda.length,
        completed: [],
        skipped: [],
        bypassed: [],
        pending_required: agenda.filter((item) => item.required).map((item) => item.id),
      },
      interaction: {
        mode: 'multi_turn',
        audio_source: 'dual_gpt_live',
        caller_mode: 'offline_fixture',
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
        termination_reason: conversation.termination_reason,
        policy: conversation.completion_policy,
        passed: assessment.passed,
        source: assessment.source,
        rationale: assessment.rationale,
        failed_checks: grade.assessment.checks
          .filter((check) => check.required && check.status === 'failed')
          .map((check) => check.id),
        failed_procedure_steps: grade.procedure?.failed_steps ?? [],
        procedure_is_diagnostic: true,
      },
      scenario: { id: scenario.id, type: scenario.type },
    },
    validity: OFFLINE_VALIDITY,
  })
}
