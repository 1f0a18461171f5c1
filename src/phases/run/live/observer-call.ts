// The completion observer's model call (§6): an evaluator-owned text model that reads the current evidence and
// says whether the call is over. It never speaks to either participant: its answer only decides when the
// harness stops relaying. Its input is exactly §6's, and it never holds the expected answer.
import { z } from 'zod'
import type { JsonObject } from '../../../grading/json-values.ts'
import { callStructured, type ModelCallSettings, type ModelUsageEvent } from '../../../models/index.ts'
import type { Scenario } from '../../../scenarios/scenario.ts'
import { NON_SUBSTANTIVE_ACTIONS } from '../../../scenarios/simulation.ts'

export const CompletionDecisionSchema = z.strictObject({
  should_drain: z.boolean(),
  outcome: z.enum(['resolved', 'refused', 'unresolved']),
  reason: z.string().min(1).max(500),
})
export type CompletionDecision = z.infer<typeof CompletionDecisionSchema>

/** The evaluator-only facts the observer reads; built once per scenario, never shown to a participant. */
export interface ObserverFacts {
  caller_goal: string
  caller_expectations: string[]
  required_caller_objectives: { commitment: string; completion_condition: string }[]
  expected_application_state: JsonObject
  delegation_forbidden: boolean
}

/** What the observer sees at one moment of the call, beside the facts. */
export interface ObservedEvidence {
  initial_application_state: JsonObject
  observed_application_state: JsonObject
  expected_state_verified: boolean
  assistant_work_pending: boolean
  completed_application_tools: { name: string; status: string; output: unknown }[]
  conversation: { role: 'user' | 'assistant'; text: string; end_ms: number }[]
}

export type ObserverInput = ObserverFacts & ObservedEvidence

/** §6: the conversation the observer reads is the last 12 turns. */
export const OBSERVER_CONVERSATION_TURNS = 12

export function observerFactsOf(
  scenario: Pick<Scenario, 'simulation_parameters' | 'expected'>,
): ObserverFacts {
  const parameters = scenario.simulation_parameters
  return {
    caller_goal: parameters?.goal ?? '',
    caller_expectations: [...(parameters?.expectations ?? [])],
    required_caller_objectives: (parameters?.agenda ?? [])
      .filter((item) => item.required && !NON_SUBSTANTIVE_ACTIONS.has(item.action))
      .map((item) => ({ commitment: item.commitment, completion_condition: item.completion_condition })),
    expected_application_state: structuredClone(scenario.expected.state),
    delegation_forbidden: scenario.expected.delegation === 'forbidden',
  }
}

const SYSTEM_PROMPT = [
  'You watch a phone call between a simulated caller and a voice assistant, and decide only whether the call is finished.',
  'You never talk to either of them. Read the JSON evidence: the caller goal and objectives, the application state, the tools that ran, and the latest turns of the conversation.',
  'Answer should_drain=true only when nothing is left to do: the caller got what it called for (outcome "resolved"), or the assistant gave a clear, final refusal (outcome "refused"), and the conversation has reached a natural close.',
  'Answer should_drain=false with outcome "unresolved" while the assistant is still working, an objective is still open, or the caller still has something to say.',
  'Give a short reason.',
].join('\n')

export interface ObserverCallSettings extends Omit<ModelCallSettings, 'source' | 'purpose'> {}

export async function callCompletionObserver(
  settings: ObserverCallSettings,
  input: ObserverInput,
): Promise<{ decision: CompletionDecision; usage: ModelUsageEvent }> {
  const result = await callStructured({
    ...settings,
    source: 'completion_observer',
    purpose: 'completion_observer/should_drain',
    schema: CompletionDecisionSchema,
    schemaName: 'completion_decision',
    reasoningEffort: 'none',
    // §6: the observer answers tersely.
    verbosity: 'low',
    input: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: JSON.stringify(input) },
    ],
  })
  return { decision: result.value, usage: result.usage }
}
