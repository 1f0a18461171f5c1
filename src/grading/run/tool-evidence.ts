// RUN tool evidence (§3.6): what the application executed, against the scenario's expected tools. Unlike
// single-turn grading, the required calls match one-to-one in any order (a caller conversation may reach them
// in any order), and a prohibited call counts whatever its status: attempting it is the violation.

import { completedExecutions, failedExecutions, type ToolExecution } from '../../observability/observation.ts'
import type { ExpectedTools } from '../../scenarios/expected.ts'
import { maximumExpectedAssignment } from '../matching.ts'
import { callMatchesExpectation, executionMatchesExpectation } from '../tool-matching.ts'

export interface RunToolEvidence {
  /** Executions with repeats of a call id removed (the first terminal record of a call is the one kept). */
  executions: ToolExecution[]
  expected_tool_call_count: number
  matched_tool_call_count: number
  /** matched/expected; 1 when nothing is expected (nothing was left undone). */
  tool_call_coverage: number
  /** Executions of any status that match a prohibited expectation. */
  prohibited_tool_call_count: number
  unique_tool_invocation_count: number
  /** Completed executions the one-to-one matching did not use (extra or repeated work). */
  unexpected_completed_tool_invocation_count: number
  failed_tool_invocation_count: number
  /** Failed executions no required call expects (a refusal matched by a `status: "failed"` call is not one). */
  unexpected_failed_tool_invocation_count: number
}

export function dedupeByCallId(executions: readonly ToolExecution[]): ToolExecution[] {
  const seen = new Set<string>()
  return executions.filter((execution) => {
    if (seen.has(execution.call_id)) return false
    seen.add(execution.call_id)
    return true
  })
}

/**
 * @param earlierProhibitedCount a prohibited count already established elsewhere (for example by the
 *   architecture's own records); the larger one is kept, so no source can hide an attempt another saw.
 */
export function gradeRunToolEvidence(
  tools: ExpectedTools,
  observed: readonly ToolExecution[],
  earlierProhibitedCount = 0,
): RunToolEvidence {
  const executions = dedupeByCallId(observed)
  const completed = completedExecutions(executions)
  // Required calls match executions of the status they accept: completed by default, or the refusal (a failed
  // execution) a `status: "failed"`/`"any"` call expects; a refusal matched that way is no unexpected failure.
  const assignment = maximumExpectedAssignment(tools.required, executions, executionMatchesExpectation)
  const used = new Set(assignment.filter((index): index is number => index !== null))
  const matched = used.size
  const usedCompleted = [...used].filter((index) => executions[index]?.status === 'completed').length
  const prohibited = executions.filter((execution) =>
    tools.prohibited.some((expectation) => callMatchesExpectation(expectation, execution)),
  ).length
  const expected = tools.required.length
  return {
    executions,
    expected_tool_call_count: expected,
    matched_tool_call_count: matched,
    tool_call_coverage: expected === 0 ? 1 : matched / expected,
    prohibited_tool_call_count: Math.max(prohibited, earlierProhibitedCount),
    unique_tool_invocation_count: executions.length,
    unexpected_completed_tool_invocation_count: completed.length - usedCompleted,
    failed_tool_invocation_count: failedExecutions(executions).length,
    unexpected_failed_tool_invocation_count: failedExecutions(executions).length - (matched - usedCompleted),
  }
}
