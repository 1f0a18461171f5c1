// The judge's evidence: the evaluator side (what the scenario expected) beside what the execution observed. Built
// only from the scenario facts and the observation, as deep copies, so grading never writes back into either.
// Private business facts (the availability overrides that decide availability behind the tools) are removed here:
// the judge grades what the assistant could know and did, like the assistant it sees only the public facts.

import type { SingleTurnObservation } from '../../observability/observation.ts'
import { simulationGoal } from '../../scenarios/derived.ts'
import type { ConversationContext, Scenario } from '../../scenarios/scenario.ts'
import { isJsonObject, type JsonObject } from '../json-values.ts'
import { type ExpectedToolCall, type ScenarioFacts, scenarioFactsOf } from '../scenario-facts.ts'

/** Business-fact keys that are private to the application's executor. */
export const PRIVATE_BUSINESS_FACT_KEYS: readonly string[] = ['availability_overrides']

/**
 * Scenario facts plus what only the judge reads: the conversation context itself (grading only needs its presence)
 * and, for a simulated call, the caller's goal.
 */
export interface JudgeScenarioFacts extends ScenarioFacts {
  conversation_context: ConversationContext | null
  /** RUN: what the simulated caller set out to achieve; null for single-turn scenarios. */
  simulation_goal: string | null
}

export function judgeScenarioFactsOf(scenario: Scenario): JudgeScenarioFacts {
  return {
    ...scenarioFactsOf(scenario),
    conversation_context: scenario.input.context,
    simulation_goal: scenario.interaction === 'multi_turn' ? simulationGoal(scenario) : null,
  }
}

export interface JudgeObserved {
  observation: SingleTurnObservation
  /** The delegation records of the timeline; the observation's distinct delegation ids when absent. */
  delegations?: readonly unknown[] | undefined
  /** Messages the assistant's backend produced (text it handed to the voice model). */
  backend_messages?: readonly string[] | undefined
  /** The application's business facts; private keys are dropped before the judge sees them. */
  business_facts: JsonObject | null
}

/** The evidence of one single-turn request (CRAWL, WALK); a simulated call has its own (grading/run). */
export function buildJudgeEvidence(scenario: JudgeScenarioFacts, observed: JudgeObserved) {
  const { expected } = scenario
  const { observation } = observed
  const required = expected.tools.required
  const evidence = {
    scenario: {
      example_id: scenario.scenario_id,
      scenario_type: scenario.scenario_type,
      conversation_context: scenario.conversation_context,
      user_request: scenario.input_text,
      expected_response: expected.answer,
      success_criteria: expected.criteria,
      expected_delegation: expected.delegation,
      expected_tool_call: required[0]?.name ?? null,
      expected_tool_args: required[0]?.arguments ?? {},
      expected_tool_calls: required,
      expected_final_state: expected.state,
    },
    observed: {
      assistant_response: observation.transcript
        .filter((line) => line.role === 'assistant')
        .map((line) => line.text.trim())
        .filter((text) => text !== '')
        .join(' '),
      delegations: observed.delegations ?? [...new Set(observation.delegation_ids)],
      backend_messages: observed.backend_messages ?? [],
      tool_executions: observation.tool_executions.map(({ name, arguments: args, status, output }) => ({
        name,
        arguments: args,
        status,
        output,
      })),
      initial_application_state: observation.initial_application_state,
      final_application_state: observation.final_application_state,
      public_business_facts: publicFacts(observed.business_facts),
    },
  }
  return structuredClone(evidence)
}

export type JudgeEvidence = ReturnType<typeof buildJudgeEvidence>

/**
 * What the judge core needs of any evidence, single-turn or a whole call: the scenario part that
 * dimension-evidence.ts tailors per dimension, and the observed part. Everything else is passed on as it is.
 */
export interface JudgeEvidenceRecord {
  scenario: {
    expected_response: string
    success_criteria: readonly string[]
    expected_tool_calls: readonly ExpectedToolCall[]
    [field: string]: unknown
  }
  observed: Record<string, unknown>
  [part: string]: unknown
}

/** The application's business facts without the executor's private keys; null when there are none. */
export function publicFacts(facts: JsonObject | null): JsonObject | null {
  if (!isJsonObject(facts)) return null
  return Object.fromEntries(
    Object.entries(facts).filter(([key]) => !PRIVATE_BUSINESS_FACT_KEYS.includes(key)),
  )
}
