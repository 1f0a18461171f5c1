// Reconciliation (§3.3 step 4): turns the tool grade, executions and dimensions into the deterministic verdict.

import type { BaseTaskResult } from './base-result.ts'
import { type DeterministicDimensionGrades, toolExecutionCorrect } from './dimensions.ts'
import { verifyFinalState } from './final-state.ts'
import type { JsonObject } from './json-values.ts'
import { completedExecutions, type SingleTurnObservation, type ToolExecution } from './observation.ts'
import type { ScenarioFacts } from './scenario-facts.ts'
import type { ToolCallGrade } from './tool-grade.ts'
import { positionalExecutionMatchCount } from './tool-matching.ts'

export interface ReconciledTaskResult {
  /** Required calls matched by completed executions at the same position. */
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
  // Kept for the public signature: the tool grade reaches the verdict through the tool_selection and
  // parameter_accuracy dimensions.
  _toolGrade: ToolCallGrade,
  dimensions: DeterministicDimensionGrades,
): ReconciledTaskResult {
  const required = scenario.expected.tools.required
  const completed = completedExecutions(observation.tool_executions)
  const matched = positionalExecutionMatchCount(required, completed)
  // The same rule as the tool_execution dimension: one definition, so the two can never disagree.
  const executionCorrect = toolExecutionCorrect(observation, scenario)
  // §3.3 step 4 lists delegation OK, tool grade 1, execution_correct, no prohibited call and no failed dimension.
  // The first three *are* dimensions (delegation_decision, tool_selection + parameter_accuracy, tool_execution), so
  // "no dimension failed" already holds them; testing them again would be checks that can never decide anything.
  const noDimensionFailed = Object.values(dimensions).every((grade) => grade.status !== 'failed')
  const requirementsSatisfied = base.prohibited_tool_call_count === 0 && noDimensionFailed
  return {
    matched_tool_call_count: matched,
    execution_correct: executionCorrect,
    requirements_satisfied: requirementsSatisfied,
    task_completed: base.conversation_completed && requirementsSatisfied,
    // With nothing expected, coverage is perfect only if nothing completed either.
    tool_call_coverage: required.length > 0 ? matched / required.length : completed.length === 0 ? 1 : 0,
    initial_application_state: observation.initial_application_state,
    expected_application_state: scenario.expected.state,
    final_application_state: observation.final_application_state,
    outcome_state_satisfied: verifyFinalState(
      scenario.expected.state,
      observation.initial_application_state,
      observation.final_application_state,
    ),
    application_tool_executions: observation.tool_executions,
    post_tool_assistant_text: observation.post_tool_assistant_text,
  }
}
