import type { HistoryMessage, Interaction, Scenario } from './scenario.ts'

// The leak boundary. This is the only view of a scenario that the assistant under test, its backend and
// its offline behaviour may receive. Expected outcomes, criteria, golden tools and state, procedures,
// simulation parameters (caller goal, facts, persona), title and tags stay with the evaluator.

export interface AssistantVisibleInput {
  scenarioId: string
  interaction: Interaction
  /** What the caller says first (CRAWL speaks it; WALK's recording says it; RUN's caller opens with it). */
  inputText: string
  context: { summary: string; history: HistoryMessage[] } | null
  /** The application state the assistant is authorized to read. */
  initialState: Record<string, unknown>
}

export function assistantVisibleInput(scenario: Scenario): AssistantVisibleInput {
  const context = scenario.input.context
  // Deep copies: nothing the assistant side does can reach back into the evaluator's scenario.
  return {
    scenarioId: scenario.id,
    interaction: scenario.interaction,
    inputText: scenario.input.text,
    context:
      context === null
        ? null
        : { summary: context.summary, history: context.history.map((message) => ({ ...message })) },
    initialState: structuredClone(scenario.application.initial_state),
  }
}
