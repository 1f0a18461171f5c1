// Deterministic dimensions of a single-turn execution (§3.3 step 3). Each one says what it checked and shows the
// evidence, so a failing grade explains itself without reading the code.

import { executionSummaries, type SingleTurnObservation } from '../observability/observation.ts'
import { type DimensionGrade, decidedDimension, notApplicableDimension } from './dimension-grade.ts'
import { verifyFinalState } from './final-state.ts'
import type { ScenarioFacts } from './scenario-facts.ts'
import { describeStateDifferences, stateDifferences } from './state-differences.ts'
import type { ToolCallGrade } from './tool-grade.ts'
import { matchRequiredExecutions } from './tool-matching.ts'

export const DETERMINISTIC_DIMENSIONS = [
  'run_validity',
  'delegation_decision',
  'tool_selection',
  'parameter_accuracy',
  'tool_execution',
  'final_state',
  'clarification_behavior',
  'grounded_relay_order',
] as const

export type DeterministicDimension = (typeof DETERMINISTIC_DIMENSIONS)[number]
export type DeterministicDimensionGrades = Record<DeterministicDimension, DimensionGrade>

function uniqueCount(values: readonly string[]): number {
  return new Set(values).size
}

/** Required needs at least one delegation, forbidden needs none, optional accepts both. */
export function delegationDecisionPassed(
  policy: ScenarioFacts['expected']['delegation'],
  delegations: number,
): boolean {
  if (policy === 'required') return delegations > 0
  if (policy === 'forbidden') return delegations === 0
  return true
}

/**
 * The graded executions (completed ones, and refusals a required call expects) match the ordered required list
 * position by position, there are exactly as many as expected, and no other execution failed. With no expected
 * tools this means: nothing completed, nothing failed.
 */
function toolExecutionCorrect(observation: SingleTurnObservation, scenario: ScenarioFacts): boolean {
  const required = scenario.expected.tools.required
  const match = matchRequiredExecutions(required, observation.tool_executions)
  return (
    match.matched === required.length &&
    match.graded.length === required.length &&
    match.unexpected_failed === 0
  )
}

export function gradeDeterministicDimensions(
  observation: SingleTurnObservation,
  scenario: ScenarioFacts,
  toolGrade: ToolCallGrade,
): DeterministicDimensionGrades {
  const { expected } = scenario
  const delegations = uniqueCount(observation.delegation_ids)
  const executions = observation.tool_executions
  const stateCorrect = verifyFinalState(
    expected.state,
    observation.initial_application_state,
    observation.final_application_state,
  )
  const executionCorrect = toolExecutionCorrect(observation, scenario)
  const executionEvidence = {
    expected: expected.tools.required.map(({ name, arguments: args, status }) => ({
      name,
      arguments: args,
      status,
    })),
    executed: executionSummaries(executions),
  }
  const postToolText = observation.post_tool_assistant_text.trim()

  return {
    // Grading only runs on an observation, so a session did produce evidence.
    run_validity: decidedDimension(true, 'The session produced evidence to grade.', {
      termination_reason: observation.termination_reason,
    }),
    delegation_decision: decidedDimension(
      delegationDecisionPassed(expected.delegation, delegations),
      `Delegation policy "${expected.delegation}" with ${delegations} delegation(s) observed.`,
      { expected: expected.delegation, observed: delegations > 0, count: delegations },
    ),
    tool_selection: decidedDimension(
      toolGrade.tool_call_correctness === 1,
      'Requested tool names must equal the expected names, in order, with no extra or missing call.',
      {
        expected: expected.tools.required.map((call) => call.name),
        requested: observation.requested_tool_calls.map((call) => call.name),
      },
    ),
    parameter_accuracy: decidedDimension(
      toolGrade.tool_call_arg_correctness === 1,
      'Each requested call must contain the expected arguments of its position.',
      {
        expected: expected.tools.required.map((call) => call.arguments),
        requested: observation.requested_tool_calls.map((call) => call.arguments),
      },
    ),
    tool_execution: decidedDimension(
      executionCorrect,
      'Executions must match the expected calls in order, count and status, with no unexpected failed execution.',
      executionEvidence,
    ),
    final_state: decidedDimension(
      stateCorrect,
      'The final application state must satisfy the expected state.',
      {
        // What a reader needs first: the paths that differ (the whole states follow for the artifacts).
        ...(stateCorrect
          ? {}
          : {
              differences: describeStateDifferences(
                stateDifferences(
                  expected.state,
                  observation.initial_application_state,
                  observation.final_application_state,
                  'single_turn',
                ),
              ),
            }),
        expected: expected.state,
        initial: observation.initial_application_state,
        final: observation.final_application_state,
      },
    ),
    clarification_behavior:
      scenario.scenario_type === 'clarification'
        ? decidedDimension(
            delegations === 0 && executions.length === 0 && stateCorrect,
            'A clarification asks first: no delegation, no tool execution, state as expected.',
            { delegations, tool_executions: executions.length, state_correct: stateCorrect },
          )
        : notApplicableDimension('Only clarification scenarios are graded on clarification behaviour.'),
    grounded_relay_order:
      expected.tools.required.length > 0
        ? decidedDimension(
            executionCorrect && postToolText.length > 0,
            'The expected tools must run correctly and the assistant must speak after their results.',
            {
              tool_execution_correct: executionCorrect,
              post_tool_assistant_text: observation.post_tool_assistant_text,
            },
          )
        : notApplicableDimension('No tool is expected, so there is no result to relay.'),
  }
}
