// The scenario facts grading reads: the contract's evaluator-only expectations plus the few scenario properties that
// decide which dimensions apply. Built once per scenario with scenarioFacts(); graders never see the raw scenario.

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
}

export function scenarioFactsOf(scenario: Scenario): ScenarioFacts {
  return {
    scenario_id: scenario.id,
    scenario_type: scenarioType(scenario),
    interaction: scenario.interaction,
    input_text: scenario.input.text,
    has_conversation_context: scenario.input.context !== null,
    expected: scenario.expected,
  }
}
