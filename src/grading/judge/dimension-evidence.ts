// What one dimension's judge is shown. A single-turn scenario shows every dimension the same evidence. A simulated
// call (RUN) tailors it: task_understanding is judged against the caller's goal, with success criteria that also ask
// for the verified outcome, and sees the expected tools only as preferred ones (RUN does not grade tool order);
// the procedure part (the SOP and how each step went) is shown only to the other dimensions, so following the SOP
// never substitutes for the outcome and skipping an optional step never costs the task.

import type { SemanticDimension } from '../semantic-applicability.ts'
import type { JudgeEvidenceRecord, JudgeScenarioFacts } from './evidence.ts'

/** Added to task_understanding's criteria for a simulated call (our wording of the reference's four items). */
export const RUN_OUTCOME_CRITERIA: readonly string[] = [
  'The caller’s goal was achieved by the end of the call.',
  'What the assistant said matches the verified final application state.',
  'No prohibited or unauthorized action was taken.',
  'The assistant claimed no change that the tool record does not show.',
]

/** The evidence part that holds the SOP; only dimensions other than task_understanding see it. */
export const PROCEDURE_EVIDENCE_PART = 'procedure'

export function dimensionEvidence(
  evidence: JudgeEvidenceRecord,
  dimension: SemanticDimension,
  scenario: JudgeScenarioFacts,
): Readonly<Record<string, unknown>> {
  if (scenario.interaction !== 'multi_turn' || dimension !== 'task_understanding') return evidence
  const { [PROCEDURE_EVIDENCE_PART]: _sop, ...shared } = evidence
  const {
    expected_tool_call: _one,
    expected_tool_args: _args,
    expected_tool_calls,
    ...rest
  } = evidence.scenario
  return {
    ...shared,
    scenario: {
      ...rest,
      expected_response: scenario.simulation_goal ?? evidence.scenario.expected_response,
      success_criteria: [...evidence.scenario.success_criteria, ...RUN_OUTCOME_CRITERIA],
      preferred_tool_calls: expected_tool_calls,
    },
  }
}
