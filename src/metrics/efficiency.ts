// Efficiency counts of one execution (§3.3 steps 1 and 4). Counts here are observed facts: a zero means "observed
// none", and the only unknown (null) is the turn total when the timeline could not establish turns.

import { uniqueExpectedMatches } from '../grading/matching.ts'
import type { ExpectedToolCall } from '../grading/scenario-facts.ts'
import { executionMatchesExpectation } from '../grading/tool-matching.ts'
import {
  completedExecutions,
  failedExecutions,
  type SingleTurnObservation,
  type ToolExecution,
} from '../observability/observation.ts'

export interface EfficiencyMetrics {
  /** Substantive caller turns + assistant response episodes + closing turns (backchannels excluded). */
  total_turns: number | null
  /** Unique `session.delegation.created` ids. */
  delegation_count: number
  requested_tool_call_count: number
  /** Terminal tool events deduplicated by (name, status, call_id). */
  unique_tool_invocation_count: number
  unique_completed_tool_invocation_count: number
  unique_failed_tool_invocation_count: number
  /**
   * Maximum one-to-one matching of required calls against executions of the status each accepts (completed by
   * default, as in the reference; a refusal a `status: "failed"`/`"any"` call expects), the rule every other
   * matched count uses (executionMatchesExpectation).
   */
  matched_tool_call_count: number
  /** Completed executions beyond the ones that matched the expected calls by position. */
  unexpected_completed_tool_invocation_count: number
}

/** Drops repeated terminal events of one invocation (same name, status and call id), keeping the first. */
export function uniqueToolInvocations(executions: readonly ToolExecution[]): ToolExecution[] {
  const seen = new Set<string>()
  return executions.filter((execution) => {
    const key = JSON.stringify([execution.name, execution.status, execution.call_id])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

export function totalTurns(observation: SingleTurnObservation): number | null {
  const { caller_turn_count, assistant_response_episode_count, closing_turn_count } = observation
  if (
    caller_turn_count === null ||
    assistant_response_episode_count === null ||
    closing_turn_count === null
  ) {
    return null
  }
  return caller_turn_count + assistant_response_episode_count + closing_turn_count
}

/**
 * @param positionalMatchCount matches by completed executions of the ordered required calls, by position (the
 *   single-turn reconciliation, matchRequiredExecutions' matched_completed); unexpected completed executions are
 *   the completed ones beyond it, so an expected refusal is never one and a completed call a `status: "failed"`
 *   expectation wanted refused always is.
 */
export function computeEfficiencyMetrics(
  observation: SingleTurnObservation,
  required: readonly ExpectedToolCall[],
  positionalMatchCount: number,
): EfficiencyMetrics {
  const unique = uniqueToolInvocations(observation.tool_executions)
  const completed = completedExecutions(unique)
  const failed = failedExecutions(unique)
  return {
    total_turns: totalTurns(observation),
    delegation_count: new Set(observation.delegation_ids).size,
    requested_tool_call_count: observation.requested_tool_calls.length,
    unique_tool_invocation_count: unique.length,
    unique_completed_tool_invocation_count: completed.length,
    unique_failed_tool_invocation_count: failed.length,
    matched_tool_call_count: uniqueExpectedMatches(required, unique, executionMatchesExpectation),
    unexpected_completed_tool_invocation_count: Math.max(0, completed.length - positionalMatchCount),
  }
}
