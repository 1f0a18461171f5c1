import type { Scenario } from './scenario.ts'
import { defaultPersona, type Persona } from './simulation.ts'

// Properties every phase derives from a scenario the same way.

export type ContextMode = 'none' | 'summary' | 'history' | 'summary_and_history'

/** The prior conversation as text: the summary, then one `role: text` line per history message. */
export function conversationContext(scenario: Scenario): string {
  return renderConversationContext(scenario.input.context)
}

/**
 * The same rendering for any context, e.g. the assistant-visible copy (`assistantVisibleInput(s).context`), so
 * the assistant side derives its text without holding the scenario.
 */
export function renderConversationContext(
  context: { summary: string; history: ReadonlyArray<{ role: string; text: string }> } | null,
): string {
  if (context === null) return ''
  const lines = context.history.map((message) => `${message.role}: ${message.text}`)
  return (context.summary.trim() === '' ? lines : [context.summary, ...lines]).join('\n')
}

export function contextMode(scenario: Scenario): ContextMode {
  const context = scenario.input.context
  const hasSummary = context !== null && context.summary.trim() !== ''
  const hasHistory = context !== null && context.history.length > 0
  if (hasSummary && hasHistory) return 'summary_and_history'
  if (hasSummary) return 'summary'
  if (hasHistory) return 'history'
  return 'none'
}

/** What the simulated caller tries to achieve: its stated goal, else the reference answer. Evaluator/caller-only. */
export function simulationGoal(scenario: Scenario): string {
  const goal = scenario.simulation_parameters?.goal ?? ''
  return goal.trim() === '' ? scenario.expected.answer : goal
}

/** The caller persona (a copy), or the default persona when the scenario has none. */
export function persona(scenario: Scenario): Persona {
  const own = scenario.simulation_parameters?.persona
  return own ? structuredClone(own) : defaultPersona()
}

/** The reporting category: `type`, else the first tag, else the interaction kind. */
export function scenarioType(scenario: Scenario): string {
  return scenario.type ?? scenario.tags[0] ?? scenario.interaction
}
