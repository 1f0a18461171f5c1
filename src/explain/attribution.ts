// From re-run outcomes to an explanation: each arm's pass rate with its 95% Wilson interval, its shift against the
// unchanged re-run (the control) with Newcombe's interval (src/reporting: the same intervals as the report and
// the gate), the effect that interval allows, the decisive intervention and the failure class. Pure functions of
// the outcomes: no judge, no network. An arm whose outcomes equal the control's has a shift of exactly 0.
import { passRateDelta } from '../reporting/delta-intervals.ts'
import { wilsonInterval } from '../reporting/statistics.ts'
import type { Arm, Classification, Effect, Explanation, InterventionId, Rerun } from './schema.ts'
import { classOfIntervention, classPhrase, remainingClass } from './taxonomy.ts'

/** An arm before its statistics: which intervention, what it changed, and its re-runs. */
export interface ArmOutcome {
  arm: string
  intervention: InterventionId | null
  label: string
  target: string | null
  reruns: Rerun[]
}

function counts(reruns: readonly Rerun[]) {
  const passed = reruns.filter((rerun) => rerun.status === 'passed').length
  const failed = reruns.filter((rerun) => rerun.status === 'failed').length
  return { passed, n: passed + failed, infrastructure_errors: reruns.length - passed - failed }
}

/**
 * What the shift's interval allows: `fixes`/`worsens` only when the 95% interval excludes 0; exactly no change
 * is `no_shift`; a change the interval cannot tell from none is `inconclusive`; no verdict on either side,
 * `unknown`.
 */
export function effectOf(shift: {
  delta: number | null
  lower: number | null
  upper: number | null
}): Effect {
  if (shift.delta === null || shift.lower === null || shift.upper === null) return 'unknown'
  if (shift.lower > 0) return 'fixes'
  if (shift.upper < 0) return 'worsens'
  return shift.delta === 0 ? 'no_shift' : 'inconclusive'
}

/** The arm with its statistics; `control` null computes the control itself (no shift). */
export function armOf(outcome: ArmOutcome, control: Arm | null): Arm {
  const { passed, n, infrastructure_errors } = counts(outcome.reruns)
  const interval = wilsonInterval(passed, n)
  const shift =
    control === null
      ? null
      : passRateDelta({ successes: control.passed, n: control.n }, { successes: passed, n })
  return {
    ...outcome,
    passed,
    n,
    infrastructure_errors,
    pass_rate: { estimate: interval.estimate, lower: interval.lower, upper: interval.upper },
    shift,
    effect: shift === null ? null : effectOf(shift),
  }
}

/**
 * The intervention with the largest effect among those that fix the failure: the largest shift, then the higher
 * lower bound, then the catalogue's order (upstream causes first), which `arms` is already in.
 */
export function decisiveArm(arms: readonly Arm[]): Arm | null {
  let best: Arm | null = null
  for (const arm of arms) {
    if (arm.effect !== 'fixes') continue
    const better =
      best === null ||
      (arm.shift?.delta ?? 0) > (best.shift?.delta ?? 0) ||
      ((arm.shift?.delta ?? 0) === (best.shift?.delta ?? 0) &&
        (arm.shift?.lower ?? 0) > (best.shift?.lower ?? 0))
    if (better) best = arm
  }
  return best
}

const fraction = (arm: Pick<Arm, 'passed' | 'n'>) => `${arm.passed}/${arm.n}`

function classification(control: Arm, decisive: Arm | null, arms: readonly Arm[]): Classification {
  if (control.n === 0) {
    return {
      class: 'unexplained',
      basis: 'control',
      note: `the unchanged re-run gave no verdict (${control.infrastructure_errors} infrastructure errors): nothing can be attributed`,
    }
  }
  if (control.passed === control.n && control.passed === control.n) {
    return {
      class: 'not_reproduced',
      basis: 'control',
      note: `the unchanged re-run passed ${fraction(control)}: the failure did not reproduce, so nothing can be attributed`,
    }
  }
  if (decisive !== null && decisive.intervention !== null) {
    const failureClass = classOfIntervention(decisive.intervention)
    return {
      class: failureClass,
      basis: 'intervention',
      note: `${decisive.label} passed ${fraction(decisive)} against ${fraction(control)} unchanged`,
    }
  }
  const tried =
    arms.length === 0 ? 'no intervention applied' : 'no applicable intervention changed the outcome'
  const remaining = remainingClass(control.reruns)
  return {
    class: remaining.class,
    basis: 'remaining_checks',
    note:
      remaining.because === null ? tried : `${tried}; the unchanged re-runs still fail ${remaining.because}`,
  }
}

function summaryOf(control: Arm, decisive: Arm | null, result: Classification): string {
  if (result.basis === 'control') return result.note
  if (decisive !== null) {
    return `fixed by ${decisive.label} in ${fraction(decisive)} (unchanged ${fraction(control)}): ${classPhrase(result.class)}`
  }
  if (result.class === 'unexplained') return `${result.note}: unexplained`
  return `${result.note}: ${classPhrase(result.class)}`
}

/** The explanation of one scenario from its arms' outcomes (`outcomes` in the catalogue's order). */
export function explanationOf(
  scenario: Pick<
    Explanation,
    'scenario_id' | 'title' | 'run_rows' | 'original_failed_checks' | 'not_applicable'
  >,
  controlOutcome: ArmOutcome,
  outcomes: readonly ArmOutcome[],
): Explanation {
  const control = armOf(controlOutcome, null)
  const arms = outcomes.map((outcome) => armOf(outcome, control))
  const decisive = control.n > 0 && control.passed < control.n ? decisiveArm(arms) : null
  const result = classification(control, decisive, arms)
  return {
    ...scenario,
    control,
    interventions: arms,
    decisive:
      decisive === null || decisive.intervention === null
        ? null
        : {
            arm: decisive.arm,
            intervention: decisive.intervention,
            label: decisive.label,
            passed: decisive.passed,
            n: decisive.n,
          },
    classification: result,
    summary: summaryOf(control, decisive, result),
  }
}
