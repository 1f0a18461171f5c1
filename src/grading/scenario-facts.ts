// The scenario facts grading reads: the contract's evaluator-only expectations plus the few scenario properties that
// decide which dimensions apply. Built once per scenario with scenarioFacts(); graders never see the raw scenario.

import { expectsVerification } from '../faults/scenario-profile.ts'
import { scenarioType } from '../scenarios/derived.ts'
import type { ExpectedOutcome, ExpectedToolCall } from '../scenarios/expected.ts'
import type { Scenario } from '../scenarios/scenario.ts'

export type { ExpectedOutcome, ExpectedToolCall }

export interface ScenarioFacts {
  scenario_id: string
  scenario_type: string
  interaction: Scenario['interaction']
  /** The caller's request text (CRAWL speaks it, WALK uses it as reference): decides context_fidelity. */
  input_text: string
  has_conversation_context: boolean
  expected: ExpectedOutcome
  /**
   * Tagged `expects_verification`: an implausible tool result must be checked again (src/grading/faults).
   * Present only when true, so the facts of every other scenario stay as they were.
   */
  expects_verification?: true
}

export function scenarioFactsOf(scenario: Scenario): ScenarioFacts {
  return {
    scenario_id: scenario.id,
    scenario_type: scenarioType(scenario),
    interaction: scenario.interaction,
    input_text: scenario.input.text,
    has_conversation_context: scenario.input.context !== null,
    expected: scenario.expected,
    ...(expectsVerification(scenario) ? { expects_verification: true as const } : {}),
  }
}
