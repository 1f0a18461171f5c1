// The judge's evidence for a whole simulated call (§3.6). Evaluator-side: the scenario's expectations (goal,
// criteria, expected and prohibited tools, expected state) beside everything the call observably did — the timed
// conversation of both sides, the deduplicated tool executions with their outputs, the initial and final state, the
// public business facts and what the deterministic graders verified. The SOP and how each step went sit in their own
// `procedure` part, which dimension-evidence.ts shows to every dimension except task_understanding.
//
// Built from copies only (structuredClone), so grading never writes back into the observation or the scenario.

import type { JsonObject } from '../json-values.ts'
import { PROCEDURE_EVIDENCE_PART } from '../judge/dimension-evidence.ts'
import { type JudgeEvidenceRecord, type JudgeScenarioFacts, publicFacts } from '../judge/evidence.ts'
import type { RunGrade, RunObservation } from './run-outcome.ts'

/** What the RUN judge reads of one conversation. */
export interface RunJudgeObserved {
  observation: RunObservation
  /** The application's business facts; private keys are dropped before the judge sees them. */
  business_facts: JsonObject | null
}

/** The checks the judge's verdict decides; every other check is the deterministic graders' alone. */
export const JUDGE_DECIDED_CHECKS: ReadonlySet<string> = new Set([
  'semantic_outcome',
  'semantic_requirements',
])

export function buildRunJudgeEvidence(
  facts: JudgeScenarioFacts,
  deterministic: RunGrade,
  observed: RunJudgeObserved,
): JudgeEvidenceRecord {
  const { expected } = facts
  const { observation } = observed
  const { tools, procedure } = deterministic
  const evidence: JudgeEvidenceRecord = {
    scenario: {
      example_id: facts.scenario_id,
      scenario_type: facts.scenario_type,
      conversation_context: facts.conversation_context,
      user_request: facts.input_text,
      simulation_goal: facts.simulation_goal,
      expected_response: expected.answer,
      success_criteria: expected.criteria,
      expected_delegation: expected.delegation,
      expected_tool_calls: expected.tools.required,
      prohibited_tool_calls: expected.tools.prohibited,
      expected_final_state: expected.state,
    },
    observed: {
      termination_reason: observation.termination_reason,
      // Both sides, in timeline order, so the judge reads turns and overlaps rather than one run-on answer.
      conversation: observation.transcript.map((line) => ({
        role: line.role === 'user' ? 'caller' : 'assistant',
        text: line.text,
        start_ms: line.start_ms,
        ...(line.end_ms === undefined ? {} : { end_ms: line.end_ms }),
      })),
      delegations: [...new Set(observation.delegation_ids)],
      backend_messages: [...(observation.backend_messages ?? [])],
      tool_executions: tools.executions.map(({ name, arguments: args, status, output, completed_at_ms }) => ({
        name,
        arguments: args,
        status,
        output,
        completed_at_ms,
      })),
      initial_application_state: observation.initial_application_state,
      final_application_state: observation.final_application_state,
      public_business_facts: publicFacts(observed.business_facts),
      verified_outcome: {
        outcome_state_satisfied: deterministic.outcome_state_satisfied,
        matched_tool_call_count: tools.matched_tool_call_count,
        expected_tool_call_count: tools.expected_tool_call_count,
        prohibited_tool_call_count: tools.prohibited_tool_call_count,
        checks: deterministic.assessment.checks
          // The judge's own checks are still not_assessed placeholders here; showing them would only confuse it.
          .filter((check) => !JUDGE_DECIDED_CHECKS.has(check.id))
          .map(({ id, status, required }) => ({ id, status, required })),
      },
    },
    ...(expected.procedure === null
      ? {}
      : {
          [PROCEDURE_EVIDENCE_PART]: {
            standard_operating_procedure: expected.procedure,
            step_results: (procedure?.steps ?? []).map(({ id, kind, passed, failure, evidence }) => ({
              id,
              kind,
              passed,
              failure,
              evidence,
            })),
            adherence: procedure?.adherence ?? null,
          },
        }),
  }
  return structuredClone(evidence)
}
