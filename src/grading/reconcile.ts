// Reconciliation (§3.3 step 4): turns the executions and dimensions (the tool grade reaches it through
// tool_selection and parameter_accuracy) into the deterministic verdict.

import {
  completedExecutions,
  type SingleTurnObservation,
  type ToolExecution,
} from '../observability/observation.ts'
import type { BaseTaskResult } from './base-result.ts'
import type { DeterministicDimensionGrades } from './dimensions.ts'
import type { JsonObject } from './json-values.ts'
import type { ScenarioFacts } from './scenario-facts.ts'
import { matchRequiredExecutions } from './tool-matching.ts'

export interface ReconciledTaskResult {
  /** Required calls matched at the same position by a completed execution, or by a refusal they expect. */
  matched_tool_call_count: number
  execution_correct: boolean
  requirements_satisfied: boolean
  task_completed: boolean
  tool_call_coverage: number
  initial_application_state: JsonObject
  expected_application_state: JsonObject
  final_application_state: JsonObject
  outcome_state_satisfied: boolean
  application_tool_executions: ToolExecution[]
  post_tool_assistant_text: string
}

export function reconcileTaskResult(
  observation: SingleTurnObservation,
  scenario: ScenarioFacts,
  base: BaseTaskResult,
  dimensions: DeterministicDimensionGrades,
): ReconciledTaskResult {
  const required = scenario.expected.tools.required
  const completed = completedExecutions(observation.tool_executions)
  const matched = matchRequiredExecutions(required, observation.tool_executions).matched
  // §3.3 step 4 lists delegation OK, tool grade 1, execution_correct, no prohibited call and no failed dimension.
  // The first three *are* dimensions (delegation_decision, tool_selection + parameter_accuracy, tool_execution), so
  // "no dimension failed" already holds them; testing them again would be checks that can never decide anything.
  // For the same reason execution_correct and outcome_state_satisfied are read from their dimensions, not recomputed.
  const noDimensionFailed = Object.values(dimensions).every((grade) => grade.status !== 'failed')
  const requirementsSatisfied = base.prohibited_tool_call_count === 0 && noDimensionFailed
  return {
    matched_tool_call_count: matched,
    execution_correct: dimensions.tool_execution.status === 'passed',
    requirements_satisfied: requirementsSatisfied,
    task_completed: base.conversation_completed && requirementsSatisfied,
    // With nothing expected, coverage is perfect only if nothing completed either.
    tool_call_coverage: required.length > 0 ? matched / required.length : completed.length === 0 ? 1 : 0,
    initial_application_state: observation.initial_application_state,
    expected_application_state: scenario.expected.state,
    final_application_state: observation.final_application_state,
    outcome_state_satisfied: dimensions.final_state.status === 'passed',
    application_tool_executions: observation.tool_executions,
    post_tool_assistant_text: observation.post_tool_assistant_text,
  }
}
