// RUN procedure grading (§3.6): each SOP step's evidence, then dependencies and order. A step fails when a
// step it comes `after` failed, or when it happened before that step did. Adherence is diagnostic; only the
// critical steps (checked against their critical dependencies alone) can fail the outcome.
import type { Procedure } from '../../scenarios/expected.ts'
import { type ProcedureEvidenceInput, type StepEvidence, stepEvidence } from './step-evidence.ts'

export interface StepGrade extends StepEvidence {
  id: string
  kind: string
  required: boolean
  critical: boolean
  passed: boolean
  /** Why it failed: 'not_observed', 'dependency_unmet:<id>' or 'out_of_order:<id>'; null when it passed. */
  failure: string | null
}

export interface ProcedureGrade {
  procedure_id: string
  steps: StepGrade[]
  /** Passed required steps / required steps; null when no step is required. */
  adherence: number | null
  sop_passed: boolean
  has_critical_steps: boolean
  /** Ids of critical steps that failed against their critical dependencies. */
  critical_violations: string[]
  /** null when the procedure has no critical step. */
  critical_procedure_passed: boolean | null
  failed_steps: string[]
}

/** The step ran before its dependency did (by more than the 1 ms the reference tolerates). */
function outOfOrder(step: StepEvidence, dependency: StepEvidence): boolean {
  return (
    step.position_ms !== null &&
    dependency.position_ms !== null &&
    step.position_ms + 1 < dependency.position_ms
  )
}

function orderFailure(
  evidence: StepEvidence,
  after: readonly string[],
  passed: ReadonlyMap<string, boolean>,
  evidenceOf: ReadonlyMap<string, StepEvidence>,
): string | null {
  if (!evidence.matched) return 'not_observed'
  for (const dependency of after) {
    if (passed.get(dependency) !== true) return `dependency_unmet:${dependency}`
    const dependencyEvidence = evidenceOf.get(dependency)
    if (dependencyEvidence !== undefined && outOfOrder(evidence, dependencyEvidence))
      return `out_of_order:${dependency}`
  }
  return null
}

export function gradeProcedure(procedure: Procedure, input: ProcedureEvidenceInput): ProcedureGrade {
  const evidenceOf = new Map<string, StepEvidence>()
  const passed = new Map<string, boolean>()
  const criticalPassed = new Map<string, boolean>()
  const criticalIds = new Set(procedure.steps.filter((step) => step.critical).map((step) => step.id))
  const steps: StepGrade[] = []
  // `after` names only earlier steps (the contract checks it), so one pass in order sees every dependency first.
  for (const step of procedure.steps) {
    const evidence = stepEvidence(step, input)
    evidenceOf.set(step.id, evidence)
    const failure = orderFailure(evidence, step.after, passed, evidenceOf)
    passed.set(step.id, failure === null)
    if (step.critical) {
      const criticalAfter = step.after.filter((id) => criticalIds.has(id))
      criticalPassed.set(step.id, orderFailure(evidence, criticalAfter, criticalPassed, evidenceOf) === null)
    }
    steps.push({
      id: step.id,
      kind: step.kind,
      required: step.required,
      critical: step.critical,
      passed: failure === null,
      failure,
      ...evidence,
    })
  }
  const required = steps.filter((step) => step.required)
  const criticalViolations = [...criticalPassed].filter(([, ok]) => !ok).map(([id]) => id)
  return {
    procedure_id: procedure.id,
    steps,
    adherence: required.length === 0 ? null : required.filter((step) => step.passed).length / required.length,
    sop_passed: required.every((step) => step.passed),
    has_critical_steps: criticalIds.size > 0,
    critical_violations: criticalViolations,
    critical_procedure_passed: criticalIds.size === 0 ? null : criticalViolations.length === 0,
    failed_steps: required.filter((step) => !step.passed).map((step) => step.id),
  }
}
