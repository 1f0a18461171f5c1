// What one dimension's judge is shown. A single-turn scenario shows every dimension the same evidence. A simulated
// call (RUN) tailors it: task_understanding is judged against the caller's goal, with success criteria that also ask
// for the verified outcome, and sees the expected tools only as preferred ones (RUN does not grade tool order);
// the procedure (SOP) is shown only to the other dimensions, so following it never substitutes for the outcome.

import type { SemanticDimension } from '../semantic-applicability.ts'
import type { JudgeEvidence, JudgeScenarioFacts } from './evidence.ts'

/** Added to task_understanding's criteria for a simulated call (our wording of the reference's four items). */
export const RUN_OUTCOME_CRITERIA: readonly string[] = [
  'The caller’s goal was achieved by the end of the call.',
  'What the assistant said matches the verified final application state.',
  'No prohibited or unauthorized action was taken.',
  'The assistant claimed no change that the tool record does not show.',
]

export function dimensionEvidence(
  evidence: JudgeEvidence,
  dimension: SemanticDimension,
  scenario: JudgeScenarioFacts,
): Record<string, unknown> {
  if (scenario.interaction !== 'multi_turn') return evidence
  if (dimension !== 'task_understanding') {
    return { ...evidence, scenario: { ...evidence.scenario, procedure: scenario.expected.procedure } }
  }
  const {
    expected_tool_call: _one,
    expected_tool_args: _args,
    expected_tool_calls,
    ...rest
  } = evidence.scenario
  return {
    ...evidence,
    scenario: {
      ...rest,
      expected_response: scenario.simulation_goal ?? evidence.scenario.expected_response,
      success_criteria: [...evidence.scenario.success_criteria, ...RUN_OUTCOME_CRITERIA],
      preferred_tool_calls: expected_tool_calls,
    },
  }
}
