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
  /**
   * Why it failed first: 'not_observed', 'dependency_unmet:<id>' or 'out_of_order:<id>'; null when it passed. Every
   * unmet and out-of-order dependency is listed in the evidence (`unmet_dependencies`, `out_of_order_dependencies`).
   */
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
function stepRanBefore(step: StepEvidence, dependency: StepEvidence): boolean {
  return (
    step.position_ms !== null &&
    dependency.position_ms !== null &&
    step.position_ms + 1 < dependency.position_ms
  )
}

/**
 * How a step stands against the steps it comes `after`: the dependencies that did not pass and the ones it ran
 * before, each as a list (the reference's `unmet_dependencies` / `out_of_order_dependencies`), and the first
 * reason it failed.
 */
function orderCheck(
  evidence: StepEvidence,
  after: readonly string[],
  passed: ReadonlyMap<string, boolean>,
  evidenceOf: ReadonlyMap<string, StepEvidence>,
): { failure: string | null; unmet: string[]; outOfOrder: string[] } {
  const unmet = after.filter((dependency) => passed.get(dependency) !== true)
  const outOfOrder = after.filter((dependency) => {
    const dependencyEvidence = evidenceOf.get(dependency)
    return (
      passed.get(dependency) === true &&
      dependencyEvidence !== undefined &&
      stepRanBefore(evidence, dependencyEvidence)
    )
  })
  const failure = !evidence.matched
    ? 'not_observed'
    : unmet[0] !== undefined
      ? `dependency_unmet:${unmet[0]}`
      : outOfOrder[0] !== undefined
        ? `out_of_order:${outOfOrder[0]}`
        : null
  return { failure, unmet, outOfOrder }
}

export function gradeProcedure(procedure: Procedure, input: ProcedureEvidenceInput): ProcedureGrade {
  const evidenceOf = new Map<string, StepEvidence>()
  const passed = new Map<string, boolean>()
  const criticalPassed = new Map<string, boolean>()
  const criticalIds = new Set(procedure.steps.filter((step) => step.critical).map((step) => step.id))
  const steps: StepGrade[] = []
  // `after` names only earlier steps (the contract checks it), so one pass in order sees every dependency first.
  for (const step of procedure.steps) {
    const observed = stepEvidence(step, input)
    evidenceOf.set(step.id, observed)
    const order = orderCheck(observed, step.after, passed, evidenceOf)
    const { failure } = order
    passed.set(step.id, failure === null)
    const evidence: Record<string, unknown> = { ...observed.evidence }
    if (order.unmet.length > 0) evidence.unmet_dependencies = order.unmet
    if (order.outOfOrder.length > 0) evidence.out_of_order_dependencies = order.outOfOrder
    if (step.critical) {
      const criticalAfter = step.after.filter((id) => criticalIds.has(id))
      const critical = orderCheck(observed, criticalAfter, criticalPassed, evidenceOf)
      criticalPassed.set(step.id, critical.failure === null)
      if (critical.unmet.length > 0) evidence.critical_unmet_dependencies = critical.unmet
      if (critical.outOfOrder.length > 0) evidence.critical_out_of_order_dependencies = critical.outOfOrder
    }
    steps.push({
      id: step.id,
      kind: step.kind,
      required: step.required,
      critical: step.critical,
      passed: failure === null,
      failure,
      ...observed,
      evidence,
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
