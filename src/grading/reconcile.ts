// Reconciliation (§3.3 step 4): turns the tool grade, executions and dimensions into the deterministic verdict.

import type { BaseTaskResult } from './base-result.ts'
import type { DeterministicDimensionGrades } from './dimensions.ts'
import { verifyFinalState } from './final-state.ts'
import type { JsonObject } from './json-values.ts'
import {
  completedExecutions,
  failedExecutions,
  type SingleTurnObservation,
  type ToolExecution,
} from './observation.ts'
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
  toolGrade: ToolCallGrade,
  dimensions: DeterministicDimensionGrades,
): ReconciledTaskResult {
  const required = scenario.expected.tools.required
  const completed = completedExecutions(observation.tool_executions)
  const failed = failedExecutions(observation.tool_executions)
  const matched = positionalExecutionMatchCount(required, completed)
  const executionCorrect =
    matched === required.length && completed.length === required.length && failed.length === 0
  const delegationOk = dimensions.delegation_decision.status === 'passed'
  const noDimensionFailed = Object.values(dimensions).every((grade) => grade.status !== 'failed')
  const requirementsSatisfied =
    delegationOk &&
    toolGrade.grade === 1 &&
    executionCorrect &&
    base.prohibited_tool_call_count === 0 &&
    noDimensionFailed
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
