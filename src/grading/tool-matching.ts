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
 * Whether an expected call's `status` accepts an execution's: `completed` (the contract's default) only completed
 * ones, `failed` only failed ones (the tool refused, which the scenario expects: a thrown refusal is a recorded
 * failed execution), `any` either.
 */
export function statusAccepts(
  expected: ExpectedToolCall['status'],
  observed: ToolExecution['status'],
): boolean {
  return expected === 'any' || expected === observed
}

/** callMatchesExpectation with an acceptable status (statusAccepts). */
export function executionMatchesExpectation(
  expectation: Pick<ExpectedToolCall, 'name' | 'arguments' | 'status'>,
  execution: Pick<ToolExecution, 'name' | 'arguments' | 'status'>,
): boolean {
  return statusAccepts(expectation.status, execution.status) && callMatchesExpectation(expectation, execution)
}

type Expectation = Pick<ExpectedToolCall, 'name' | 'arguments' | 'status'>
type Execution = Pick<ToolExecution, 'name' | 'arguments' | 'status'>

/** The single-turn executions held against the ordered required calls, and how they fared. */
export interface RequiredExecutionMatch<E extends Execution> {
  /**
   * In order: every completed execution, and each failed one that a required call accepting failures (`failed` or
   * `any`) describes. Without such calls this is the completed executions, as the reference grades them.
   */
  graded: E[]
  /** Positions where the graded execution satisfies the required call, status included. */
  matched: number
  /** Of those, the positions held by a completed execution. */
  matched_completed: number
  /** Failed executions that no required call expects: a failure the scenario did not ask for. */
  unexpected_failed: number
}

/**
 * Single-turn execution matches are positional: the i-th graded execution must satisfy the i-th required call
 * (name, argument subset and status).
 */
export function matchRequiredExecutions<E extends Execution>(
  required: readonly Expectation[],
  executions: readonly E[],
): RequiredExecutionMatch<E> {
  const expectsFailure = required.filter((expectation) => expectation.status !== 'completed')
  const graded = executions.filter(
    (execution) =>
      execution.status === 'completed' ||
      expectsFailure.some((expectation) => executionMatchesExpectation(expectation, execution)),
  )
  const matchedAt = required.flatMap((expectation, index) => {
    const execution = graded[index]
    return execution !== undefined && executionMatchesExpectation(expectation, execution) ? [execution] : []
  })
  const failed = executions.filter((execution) => execution.status === 'failed').length
  const gradedFailed = graded.filter((execution) => execution.status === 'failed').length
  return {
    graded,
    matched: matchedAt.length,
    matched_completed: matchedAt.filter((execution) => execution.status === 'completed').length,
    unexpected_failed: failed - gradedFailed,
  }
}

/**
 * Single-turn prohibited count: how many prohibited expectations at least one observed execution satisfies.
 * A failed prohibited attempt only counts when its expectation says `status: "any"` or `"failed"` (RUN counts
 * every status).
 */
export function countMatchedProhibitedExpectations(
  prohibited: readonly ExpectedToolCall[],
  executions: readonly ToolExecution[],
): number {
  return prohibited.filter((expectation) =>
    executions.some((execution) => executionMatchesExpectation(expectation, execution)),
  ).length
}
