// The base facts of a task result (§3.3 step 1), shared by the single-turn decision and RUN.

import { COMPLETED_TERMINATION_REASONS, type SingleTurnObservation } from '../observability/observation.ts'
import { normalizeArgumentText } from './matching.ts'
import type { ScenarioFacts } from './scenario-facts.ts'
import { countMatchedProhibitedExpectations } from './tool-matching.ts'

export interface BaseTaskResult {
  conversation_completed: boolean
  delegation_observed: boolean
  delegation_required: boolean
  delegation_prohibited: boolean
  prohibited_tool_call_count: number
  /** Share of diagnostic term groups heard from the assistant; null when the scenario lists none. */
  evidence_coverage: number | null
}

/**
 * Fraction of `diagnostic_terms` groups (each `a|b` alternatives) of which some alternative appears in what the
 * assistant said, compared as normalized text. Only diagnostic: it never decides a pass.
 */
export function evidenceCoverage(terms: readonly string[], assistantText: string): number | null {
  if (terms.length === 0) return null
  const heard = ` ${normalizeArgumentText(assistantText)} `
  const covered = terms.filter((group) =>
    group
      .split('|')
      .map((alternative) => normalizeArgumentText(alternative))
      .some((alternative) => alternative.length > 0 && heard.includes(` ${alternative} `)),
  )
  return covered.length / terms.length
}

export function buildBaseResult(observation: SingleTurnObservation, scenario: ScenarioFacts): BaseTaskResult {
  const assistantText = observation.transcript
    .filter((line) => line.role === 'assistant')
    .map((line) => line.text)
    .join(' ')
  return {
    conversation_completed:
      observation.termination_reason !== null &&
      COMPLETED_TERMINATION_REASONS.has(observation.termination_reason),
    delegation_observed: observation.delegation_ids.length > 0,
    delegation_required: scenario.expected.delegation === 'required',
    delegation_prohibited: scenario.expected.delegation === 'forbidden',
    prohibited_tool_call_count: countMatchedProhibitedExpectations(
      scenario.expected.tools.prohibited,
      observation.tool_executions,
    ),
    evidence_coverage: evidenceCoverage(scenario.expected.diagnostic_terms, assistantText),
  }
}
