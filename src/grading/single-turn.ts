// The single-turn (CRAWL/WALK) task decision, composed from the pure graders in the order of §3.3:
// base facts → tool grade → deterministic dimensions → reconciliation → outcome assessment (strict tools).
// Semantic judging is a separate, live-only step; here its dimensions are `not_assessed` / `not_applicable`.

import { DEFAULT_GRADING } from '../config/defaults.ts'
import {
  computeEfficiencyMetrics,
  type EfficiencyMetrics,
  uniqueToolInvocations,
} from '../metrics/efficiency.ts'
import { buildEvidenceMetrics, type EvidenceMetrics, type EvidenceOverrides } from '../metrics/evidence.ts'
import { type GoldenValues, singleTurnGolden } from '../metrics/golden.ts'
import type { SemanticQuality } from '../metrics/semantic-quality.ts'
import type { SingleTurnObservation } from '../observability/observation.ts'
import { type BaseTaskResult, buildBaseResult } from './base-result.ts'
import type { DimensionGrade } from './dimension-grade.ts'
import { type DeterministicDimensionGrades, gradeDeterministicDimensions } from './dimensions.ts'
import { callerExperienceChecks, faultCheckInputOf } from './faults/index.ts'
import { assessOutcome, type OutcomeAssessment, withBeyondReferenceChecks } from './outcome.ts'
import { type ReconciledTaskResult, reconcileTaskResult } from './reconcile.ts'
import type { ScenarioFacts } from './scenario-facts.ts'
import { offlineSemanticGrades, type SemanticDimension } from './semantic-applicability.ts'
import { computeToolCallGrade, type ToolCallGrade } from './tool-grade.ts'
import { matchRequiredExecutions } from './tool-matching.ts'

export interface SingleTurnGrade {
  /** The verdict after outcome assessment: what `task_completed` reports. */
  task_completed: boolean
  requirements_satisfied: boolean
  base: BaseTaskResult
  tool_call_grade: ToolCallGrade
  dimension_grades: DeterministicDimensionGrades
  /** Reconciliation before the assessment joined its verdict (its matched count feeds observability). */
  reconciled: ReconciledTaskResult
  efficiency: EfficiencyMetrics
  assessment: OutcomeAssessment
  semantic_grades: Record<SemanticDimension, DimensionGrade>
  semantic_quality: SemanticQuality
  golden: GoldenValues
  evidence: EvidenceMetrics
}

export function gradeSingleTurn(
  observation: SingleTurnObservation,
  scenario: ScenarioFacts,
  overrides: EvidenceOverrides = {},
  /** grading.max_dead_air_ms for the dead-air check; default the built-in one. */
  maxDeadAirMs: number = DEFAULT_GRADING.max_dead_air_ms,
): SingleTurnGrade {
  const base = buildBaseResult(observation, scenario)
  const toolGrade = computeToolCallGrade(observation.requested_tool_calls, scenario.expected.tools.required)
  const dimensions = gradeDeterministicDimensions(observation, scenario, toolGrade)
  const reconciled = reconcileTaskResult(observation, scenario, base, dimensions)
  // A refusal a required call expects (status failed/any) is part of the contract, not a failure of it.
  const executionMatch = matchRequiredExecutions(
    scenario.expected.tools.required,
    uniqueToolInvocations(observation.tool_executions),
  )
  const efficiency = computeEfficiencyMetrics(
    observation,
    scenario.expected.tools.required,
    executionMatch.matched_completed,
  )
  const referenceAssessment = assessOutcome(
    {
      conversation_completed: base.conversation_completed,
      conversation_end: { termination_reason: observation.termination_reason },
      transcript: observation.transcript,
      expected_application_state: reconciled.expected_application_state,
      outcome_state_satisfied: reconciled.outcome_state_satisfied,
      state_comparison: 'single_turn',
      delegation_required: base.delegation_required,
      delegation_prohibited: base.delegation_prohibited,
      delegation_observed: base.delegation_observed,
      prohibited_tool_call_count: base.prohibited_tool_call_count,
      has_critical_procedure_steps: false,
      critical_procedure_passed: null,
      expected_tool_call_count: scenario.expected.tools.required.length,
      matched_tool_call_count: reconciled.matched_tool_call_count,
      unexpected_completed_tool_invocation_count: efficiency.unexpected_completed_tool_invocation_count,
      failed_tool_invocation_count: executionMatch.unexpected_failed,
      initial_application_state: observation.initial_application_state,
      final_application_state: observation.final_application_state,
      tool_executions: observation.tool_executions,
      post_tool_assistant_text: observation.post_tool_assistant_text,
    },
    { strictTools: true },
  )
  // Beyond the reference: what the caller experienced when something failed (src/grading/faults).
  const assessment = withBeyondReferenceChecks(
    referenceAssessment,
    callerExperienceChecks(
      faultCheckInputOf(observation, {
        expects_verification: scenario.expects_verification === true,
        max_dead_air_ms: maxDeadAirMs,
      }),
    ),
  )
  // Deliberate deviation from §3.3 step 5, where the assessment's verdict simply overwrites the reconciled one.
  // Its checks do not cover everything reconciliation requires, so overwriting would let some failures pass:
  // - tool_contract compares *executions* only; the tool grade judges the *requested* calls, so an extra, missing or
  //   misnamed request that never produced a terminal execution (tool_selection/parameter_accuracy) goes unseen;
  // - delegation_policy is not_applicable under an optional policy, while clarification_behavior forbids any
  //   delegation in a clarification scenario;
  // - grounded_assistant_response accepts any assistant line after the last tool, while grounded_relay_order needs
  //   the post-tool text.
  // So a pass needs both: reconciled requirements (with every deterministic dimension) and the assessment.
  const requirementsSatisfied = reconciled.requirements_satisfied && assessment.passed
  const golden = singleTurnGolden(scenario.expected)
  const evidence = buildEvidenceMetrics(
    {
      task: {
        prohibited_tool_call_count: base.prohibited_tool_call_count,
        matched_tool_call_count: reconciled.matched_tool_call_count,
        tool_call_coverage: reconciled.tool_call_coverage,
        delegation_required: base.delegation_required,
        delegation_prohibited: base.delegation_prohibited,
      },
      efficiency: { ...efficiency },
      golden: { ...golden },
    },
    overrides,
  )
  return {
    // The assessment's conversation_completed check is always required, so the verdict already holds it.
    task_completed: requirementsSatisfied,
    requirements_satisfied: requirementsSatisfied,
    base,
    tool_call_grade: toolGrade,
    dimension_grades: dimensions,
    reconciled,
    efficiency,
    assessment,
    semantic_grades: offlineSemanticGrades(scenario),
    semantic_quality: { score: null, dimensions: {} },
    golden,
    evidence,
  }
}
