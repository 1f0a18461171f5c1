// Which semantic rubric dimensions apply to a scenario (the same in every mode), and the offline grades: without a
// judge every applicable dimension is `not_assessed`, never a guessed pass or fail.

import { type DimensionGrade, notApplicableDimension, notAssessedDimension } from './dimension-grade.ts'
import type { ScenarioFacts } from './scenario-facts.ts'

export const SEMANTIC_DIMENSIONS = [
  'task_understanding',
  'context_fidelity',
  'clarification_quality',
  'grounded_communication',
  'conversational_coherence',
] as const

export type SemanticDimension = (typeof SEMANTIC_DIMENSIONS)[number]

// A spoken self-correction makes the "latest correction" part of context fidelity gradeable.
const CORRECTION_WORDS = /\b(sorry|actually|instead)\b/i

export function applicableSemanticDimensions(scenario: ScenarioFacts): SemanticDimension[] {
  const multiTurn = scenario.interaction === 'multi_turn'
  const applies: Record<SemanticDimension, boolean> = {
    task_understanding: true,
    context_fidelity:
      scenario.has_conversation_context || CORRECTION_WORDS.test(scenario.input_text) || multiTurn,
    clarification_quality:
      scenario.scenario_type === 'clarification' ||
      (scenario.expected.procedure?.steps.some((step) => step.kind === 'clarification') ?? false),
    grounded_communication: scenario.expected.tools.required.length > 0,
    conversational_coherence: multiTurn,
  }
  return SEMANTIC_DIMENSIONS.filter((dimension) => applies[dimension])
}

export function offlineSemanticGrades(scenario: ScenarioFacts): Record<SemanticDimension, DimensionGrade> {
  const applicable = new Set(applicableSemanticDimensions(scenario))
  return Object.fromEntries(
    SEMANTIC_DIMENSIONS.map((dimension) => [
      dimension,
      applicable.has(dimension)
        ? notAssessedDimension('No semantic judge ran in this mode.')
        : notApplicableDimension('This rubric dimension does not apply to the scenario.'),
    ]),
  ) as Record<SemanticDimension, DimensionGrade>
}
