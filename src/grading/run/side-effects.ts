// `no_unexpected_side_effects`, a RUN check beyond the reference (issue 18). The reference's state check looks for
// the expected subset only, so a call that booked the same table twice still "matches": both reservations are in
// the final state and one of them is the expected one. This check counts what the mutating tools actually did:
// each one may complete as often as the golden path (its required calls) or the expected state (the changes it
// describes) accounts for, and every completion beyond that is an unexpected side effect, named by its call.
//
// It is required when the scenario expects a state change (that is where a repeated mutation hides); otherwise it
// is still assessed, as a diagnostic. It is reported in our extension block, never among the reference's checks.

import { completedExecutions, type ToolExecution } from '../../observability/observation.ts'
import type { ExpectedOutcome } from '../../scenarios/expected.ts'
import { containsExpected, expectsUnchangedState } from '../final-state.ts'
import { isJsonObject, type JsonObject } from '../json-values.ts'
import type { OutcomeCheck } from '../outcome.ts'
import { isMutatingTool } from './step-evidence.ts'

export const SIDE_EFFECTS_CHECK_ID = 'no_unexpected_side_effects'

/** A completion beyond what the scenario accounts for. */
export interface DuplicateCall {
  call_id: string
  name: string
  arguments: Record<string, unknown>
}

/** The scenario expects the application state to change (a non-empty expectation that is not `unchanged`). */
export function expectsStateChange(expectedState: JsonObject): boolean {
  return Object.keys(expectedState).length > 0 && !expectsUnchangedState(expectedState)
}

/**
 * How many changes the expected state describes: each listed item (a reservation in `reservations`) that the
 * initial state does not already hold as it is; at least one when the scenario expects any change.
 */
export function changesAccountedByState(expectedState: JsonObject, initialState: JsonObject): number {
  if (!expectsStateChange(expectedState)) return 0
  let changed = 0
  for (const [key, value] of Object.entries(expectedState)) {
    if (!Array.isArray(value)) continue
    const before = initialState[key]
    const initialItems = Array.isArray(before) ? before : []
    changed += value.filter(
      (item) => isJsonObject(item) && !initialItems.some((candidate) => containsExpected(item, candidate)),
    ).length
  }
  return Math.max(changed, 1)
}

/**
 * How many completions each mutating tool may have: its required calls in the golden path, raised to what the
 * expected state accounts for. When the golden path names no mutating tool at all, the state's changes may come
 * from any of them; a mutating tool the golden path leaves out is otherwise allowed none.
 */
function allowedCompletions(expected: ExpectedOutcome, initialState: JsonObject): (tool: string) => number {
  const golden = new Map<string, number>()
  for (const call of expected.tools.required) {
    if (isMutatingTool(call.name)) golden.set(call.name, (golden.get(call.name) ?? 0) + 1)
  }
  const accounted = changesAccountedByState(expected.state, initialState)
  return (tool) => {
    const required = golden.get(tool) ?? 0
    if (required > 0) return Math.max(required, accounted)
    return golden.size === 0 ? accounted : 0
  }
}

export function gradeSideEffects(
  expected: ExpectedOutcome,
  executions: readonly ToolExecution[],
  initialState: JsonObject,
): OutcomeCheck {
  const allowed = allowedCompletions(expected, initialState)
  const byTool = new Map<string, ToolExecution[]>()
  for (const execution of completedExecutions(executions)) {
    if (!isMutatingTool(execution.name)) continue
    byTool.set(execution.name, [...(byTool.get(execution.name) ?? []), execution])
  }
  const completed: Record<string, number> = {}
  const allowedCounts: Record<string, number> = {}
  const duplicates: DuplicateCall[] = []
  for (const [tool, done] of byTool) {
    completed[tool] = done.length
    allowedCounts[tool] = allowed(tool)
    // The completions past the allowance, in the order they happened: the first ones did the expected work.
    for (const extra of done.slice(allowed(tool))) {
      duplicates.push({ call_id: extra.call_id, name: extra.name, arguments: extra.arguments })
    }
  }
  const over = Object.keys(completed).filter((tool) => (completed[tool] ?? 0) > (allowedCounts[tool] ?? 0))
  const reason =
    over.length === 0
      ? 'No mutating tool completed more often than the golden path or the expected state accounts for.'
      : `${over
          .map(
            (tool) =>
              `${tool} completed ${completed[tool]} times where ${allowedCounts[tool]} is accounted for`,
          )
          .join('; ')}; unexpected calls: ${duplicates
          .map((call) => `${call.call_id} ${call.name} ${JSON.stringify(call.arguments)}`)
          .join(', ')}.`
  return {
    id: SIDE_EFFECTS_CHECK_ID,
    status: duplicates.length === 0 ? 'passed' : 'failed',
    required: expectsStateChange(expected.state),
    reason,
    evidence: { completed, allowed: allowedCounts, duplicate_calls: duplicates },
  }
}
