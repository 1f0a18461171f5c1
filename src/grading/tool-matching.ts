// When does one terminal tool execution satisfy one expected tool call (required or prohibited)?

import type { ToolExecution } from '../observability/observation.ts'
import { expectedArgumentsMatch } from './matching.ts'
import type { ExpectedToolCall } from './scenario-facts.ts'

/** Same tool name and the expected arguments contained in the actual ones (an empty expectation matches any call). */
export function callMatchesExpectation(
  expectation: Pick<ExpectedToolCall, 'name' | 'arguments'>,
  call: Pick<ToolExecution, 'name' | 'arguments'>,
): boolean {
  return call.name === expectation.name && expectedArgumentsMatch(expectation.arguments, call.arguments)
}

/**
 * callMatchesExpectation with an acceptable status: `status: "completed"` (the contract's default) ignores failed
 * attempts; `status: "any"` counts them too.
 */
function executionMatchesExpectation(
  expectation: Pick<ExpectedToolCall, 'name' | 'arguments' | 'status'>,
  execution: Pick<ToolExecution, 'name' | 'arguments' | 'status'>,
): boolean {
  if (expectation.status === 'completed' && execution.status !== 'completed') return false
  return callMatchesExpectation(expectation, execution)
}

/**
 * Single-turn prohibited count: how many prohibited expectations at least one observed execution satisfies.
 * A failed prohibited attempt only counts when its expectation says `status: "any"` (RUN recounts all statuses).
 */
export function countMatchedProhibitedExpectations(
  prohibited: readonly ExpectedToolCall[],
  executions: readonly ToolExecution[],
): number {
  return prohibited.filter((expectation) =>
    executions.some((execution) => executionMatchesExpectation(expectation, execution)),
  ).length
}

/**
 * Single-turn execution matches are positional: the i-th completed execution must satisfy the i-th required call
 * (name and argument subset). Returns how many positions match.
 */
export function positionalExecutionMatchCount(
  required: readonly Pick<ExpectedToolCall, 'name' | 'arguments'>[],
  completed: readonly Pick<ToolExecution, 'name' | 'arguments'>[],
): number {
  return required.filter((expectation, index) => {
    const execution = completed[index]
    return execution !== undefined && callMatchesExpectation(expectation, execution)
  }).length
}
