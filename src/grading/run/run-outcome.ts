// The RUN task decision (§3.5 with §3.6): tool evidence, the procedure, then the shared outcome assessment with
// the tool contract diagnostic (strict_tools false) and the critical-procedure check required when the
// procedure marks critical steps. The judge's verdict, when one ran, joins as `semanticCompleted`; it cannot
// rescue a wrong state, a prohibited call, a failed critical step or a missing grounded response, because those
// checks stay required whatever the judge says.

import { DEFAULT_GRADING } from '../../config/defaults.ts'
import type { FaultsRecord } from '../../faults/events.ts'
import type { CallerExperience } from '../../faults/experience.ts'
import type { SemanticQuality } from '../../metrics/semantic-quality.ts'
import type { ToolExecution, TranscriptLine } from '../../observability/observation.ts'
import { COMPLETED_TERMINATION_REASONS } from '../../observability/observation.ts'
import type { ExpectedOutcome } from '../../scenarios/expected.ts'
import type { DimensionGrade } from '../dimension-grade.ts'
import { callerExperienceChecks, faultCheckInputOf } from '../faults/index.ts'
import { verifyRunFinalState } from '../final-state.ts'
import type { JsonObject } from '../json-values.ts'
import { assessOutcome, type OutcomeAssessment, withBeyondReferenceChecks } from '../outcome.ts'
import type { ScenarioFacts } from '../scenario-facts.ts'
import { offlineSemanticGrades, type SemanticDimension } from '../semantic-applicability.ts'
import { gradeProcedure, type ProcedureGrade } from './procedure.ts'
import { gradeSideEffects } from './side-effects.ts'
import { gradeRunToolEvidence, type RunToolEvidence } from './tool-evidence.ts'

/** What one RUN conversation observed, as the graders read it. */
export interface RunObservation {
  termination_reason: string | null
  delegation_ids: readonly string[]
  tool_executions: readonly ToolExecution[]
  initial_application_state: JsonObject
  final_application_state: JsonObject
  /** `end_ms`, when the observe stage knows it, reaches the judge's timed conversation; grading reads starts only. */
  transcript: readonly (Pick<TranscriptLine, 'role' | 'text' | 'start_ms'> & { end_ms?: number | null })[]
  post_tool_assistant_text: string
  /** What the backend handed the voice model to say, in order (evidence for the judge; grading ignores it). */
  backend_messages?: readonly string[]
  /** Under a fault profile: every fault injected; absent when the call ran clean. */
  faults?: FaultsRecord
  /** When work was pending and who could be heard, for the caller-experience checks (src/grading/faults). */
  experience?: CallerExperience
}

export interface RunGrade {
  task_completed: boolean
  /** The silence limit the dead-air check used (grading.max_dead_air_ms); a re-grade with the judge reuses it. */
  max_dead_air_ms: number
  /** simulation.max_duration_seconds, which a failed conversation_completed check names; null when not given. */
  max_duration_seconds: number | null
  tools: RunToolEvidence
  /** null when the scenario has no procedure. */
  procedure: ProcedureGrade | null
  outcome_state_satisfied: boolean | null
  assessment: OutcomeAssessment
}

/**
 * A RUN grade with its semantic part: every applicable dimension not_assessed and semantic_quality null until a
 * judge ran (live, grading enabled), then the judge's grades applied (the deterministic checks stay required).
 */
export interface JudgedRunGrade extends RunGrade {
  semantic_grades: Record<SemanticDimension, DimensionGrade>
  semantic_quality: SemanticQuality
}

/** The grade before any judge: the applicable semantic dimensions not_assessed, semantic_quality unknown. */
export function unjudgedRunGrade(grade: RunGrade, facts: ScenarioFacts): JudgedRunGrade {
  return {
    ...grade,
    semantic_grades: offlineSemanticGrades(facts),
    semantic_quality: { score: null, dimensions: {} },
  }
}

/** Each critical step that failed, with why and what its evidence counted (e.g. "2 refusals of 3 required"). */
function criticalEvidence(procedure: ProcedureGrade): Record<string, unknown> {
  const violated = new Set(procedure.critical_violations)
  return {
    critical_violations: procedure.steps
      .filter((step) => violated.has(step.id))
      .map(({ id, kind, failure, evidence }) => ({ id, kind, failure, evidence })),
  }
}

export interface RunGradeOptions {
  /** The judge's task-completion verdict, when one ran. */
  semanticCompleted?: boolean | null
  /** The scenario is tagged `expects_verification` (ScenarioFacts). */
  expectsVerification?: boolean
  /** grading.max_dead_air_ms; default the built-in one. */
  maxDeadAirMs?: number
  /** simulation.max_duration_seconds, named when the call ended at it; unknown (null) when not given. */
  maxDurationSeconds?: number | null
}

export function gradeRun(
  observation: RunObservation,
  expected: ExpectedOutcome,
  options: RunGradeOptions = {},
): RunGrade {
  const maxDeadAirMs = options.maxDeadAirMs ?? DEFAULT_GRADING.max_dead_air_ms
  const maxDurationSeconds = options.maxDurationSeconds ?? null
  const tools = gradeRunToolEvidence(expected.tools, observation.tool_executions)
  const procedure =
    expected.procedure === null
      ? null
      : gradeProcedure(expected.procedure, {
          executions: tools.executions,
          transcript: observation.transcript,
          initial_application_state: observation.initial_application_state,
          final_application_state: observation.final_application_state,
        })
  const expectsState = Object.keys(expected.state).length > 0
  const stateSatisfied = expectsState
    ? verifyRunFinalState(
        expected.state,
        observation.initial_application_state,
        observation.final_application_state,
      )
    : null
  const referenceAssessment = assessOutcome(
    {
      conversation_completed:
        observation.termination_reason !== null &&
        COMPLETED_TERMINATION_REASONS.has(observation.termination_reason),
      conversation_end: {
        termination_reason: observation.termination_reason,
        max_duration_seconds: maxDurationSeconds,
      },
      transcript: observation.transcript,
      expected_application_state: expectsState ? expected.state : null,
      outcome_state_satisfied: stateSatisfied,
      state_comparison: 'run',
      delegation_required: expected.delegation === 'required',
      delegation_prohibited: expected.delegation === 'forbidden',
      delegation_observed: observation.delegation_ids.length > 0,
      prohibited_tool_call_count: tools.prohibited_tool_call_count,
      has_critical_procedure_steps: procedure?.has_critical_steps ?? false,
      critical_procedure_passed: procedure?.critical_procedure_passed ?? null,
      critical_procedure_evidence: procedure === null ? {} : criticalEvidence(procedure),
      expected_tool_call_count: tools.expected_tool_call_count,
      matched_tool_call_count: tools.matched_tool_call_count,
      unexpected_completed_tool_invocation_count: tools.unexpected_completed_tool_invocation_count,
      failed_tool_invocation_count: tools.unexpected_failed_tool_invocation_count,
      initial_application_state: observation.initial_application_state,
      final_application_state: observation.final_application_state,
      tool_executions: tools.executions,
      post_tool_assistant_text: observation.post_tool_assistant_text,
    },
    { strictTools: false, semanticCompleted: options.semanticCompleted ?? null },
  )
  // Beyond the reference: a repeated mutation hides inside a matching final state (side-effects.ts), and what
  // the caller experienced when something failed (src/grading/faults).
  const assessment = withBeyondReferenceChecks(referenceAssessment, [
    gradeSideEffects(expected, tools.executions, observation.initial_application_state),
    ...callerExperienceChecks(
      faultCheckInputOf(observation, {
        expects_verification: options.expectsVerification ?? false,
        max_dead_air_ms: maxDeadAirMs,
      }),
    ),
  ])
  return {
    task_completed: assessment.passed,
    max_dead_air_ms: maxDeadAirMs,
    max_duration_seconds: maxDurationSeconds,
    tools,
    procedure,
    outcome_state_satisfied: stateSatisfied,
    assessment,
  }
}
