// The `observability` block of a single-turn row (§4.1): how the execution went, in counts and statuses, without
// evaluator-only expectations. Single-turn rows never carry `agenda` or `floor` (those are RUN's).

import type { ScenarioFacts } from '../grading/scenario-facts.ts'
import type { SingleTurnGrade } from '../grading/single-turn.ts'
import { executionSummaries, type SingleTurnObservation } from '../observability/observation.ts'

export interface SingleTurnObservabilityInput {
  observation: SingleTurnObservation
  scenario: ScenarioFacts
  grade: SingleTurnGrade
  audio_source: 'synthetic' | 'recorded'
  /** Where the evidence came from (mode, models, assistant architecture), as the phase records it. */
  provenance: Record<string, unknown>
}

function statuses(grades: Record<string, { status: string }>): Record<string, string> {
  return Object.fromEntries(Object.entries(grades).map(([name, grade]) => [name, grade.status]))
}

export function singleTurnObservability(input: SingleTurnObservabilityInput): Record<string, unknown> {
  const { observation, scenario, grade } = input
  return {
    provenance: input.provenance,
    interaction: {
      mode: 'single_turn',
      audio_source: input.audio_source,
      assistant_turns: observation.assistant_response_episode_count,
      caller_turns: observation.caller_turn_count,
      delegations: grade.efficiency.delegation_count,
    },
    tools: {
      executed: executionSummaries(observation.tool_executions),
      expected_count: scenario.expected.tools.required.length,
      matched_count: grade.reconciled.matched_tool_call_count,
      unexpected_completed_count: grade.efficiency.unexpected_completed_tool_invocation_count,
      failed_count: grade.efficiency.unique_failed_tool_invocation_count,
    },
    grading: {
      deterministic: statuses(grade.dimension_grades),
      semantic: statuses(grade.semantic_grades),
      semantic_scores: grade.semantic_quality.dimensions,
    },
    completion: {
      termination_reason: observation.termination_reason,
      passed: grade.task_completed,
      source: grade.assessment.source,
      rationale: grade.assessment.rationale,
      failed_checks: grade.assessment.checks
        .filter((check) => check.required && check.status === 'failed')
        .map((check) => check.id),
    },
    scenario: { id: scenario.scenario_id, type: scenario.scenario_type },
  }
}
