// From re-run outcomes to an explanation: each arm's success rate on its measure with its 95% Wilson interval, its
// shift against the unchanged re-run (the control) on the same measure with Newcombe's interval (src/reporting:
// the intervals the report and the gate use), the effect that interval allows, the decisive intervention and the
// failure class. Pure functions of the outcomes: no judge, no network. An arm whose outcomes equal the control's
// has a shift of exactly 0.
import { passRateDelta } from '../reporting/delta-intervals.ts'
import { wilsonInterval } from '../reporting/statistics.ts'
import type {
  Arm,
  Classification,
  Effect,
  Explanation,
  FailureClass,
  InterventionId,
  Measure,
  Rerun,
} from './schema.ts'
import { classPhrase, remainingClass } from './taxonomy.ts'

/** An arm before its statistics: which intervention, what it changed, how it is judged, and its re-runs. */
export interface ArmOutcome {
  arm: string
  intervention: InterventionId | null
  label: string
  target: string | null
  measure: Measure
  /** The class the arm names when it is decisive; null for the control. */
  class: FailureClass | null
  reruns: Rerun[]
}

function counts(reruns: readonly Rerun[]) {
  const judged = reruns.filter((rerun) => rerun.status !== 'infrastructure_error')
  return {
    passed: judged.filter((rerun) => rerun.status === 'passed').length,
    resolved: judged.filter((rerun) => rerun.resolved === true).length,
    n: judged.length,
    infrastructure_errors: reruns.length - judged.length,
  }
}

const successesOf = (arm: Pick<Arm, 'passed' | 'resolved'>, measure: Measure) =>
  measure === 'verdict' ? arm.passed : arm.resolved

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
  const counted = counts(outcome.reruns)
  const successes = successesOf(counted, outcome.measure)
  const interval = wilsonInterval(successes, counted.n)
  const shift =
    control === null
      ? null
      : passRateDelta(
          { successes: successesOf(control, outcome.measure), n: control.n },
          { successes, n: counted.n },
        )
  return {
    ...outcome,
    ...counted,
    successes,
    rate: { estimate: interval.estimate, lower: interval.lower, upper: interval.upper },
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

/** `5/5`, on the arm's measure; the control's on the measure it is compared with. */
const fraction = (arm: Arm, measure: Measure = arm.measure) => `${successesOf(arm, measure)}/${arm.n}`

function classification(control: Arm, decisive: Arm | null, arms: readonly Arm[]): Classification {
  if (control.n === 0) {
    return {
      class: 'unexplained',
      basis: 'control',
      note: `the unchanged re-run gave no verdict (${control.infrastructure_errors} infrastructure errors): nothing can be attributed`,
    }
  }
  if (control.passed === control.n) {
    return {
      class: 'not_reproduced',
      basis: 'control',
      note: `the unchanged re-run passed ${fraction(control)}: the failure did not reproduce, so nothing can be attributed`,
    }
  }
  if (decisive?.class != null) {
    const judged = decisive.measure === 'verdict' ? 'passed' : 'resolved the run’s failure'
    return {
      class: decisive.class,
      basis: 'intervention',
      note: `${decisive.label} ${judged} ${fraction(decisive)} against ${fraction(control, decisive.measure)} unchanged`,
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
    const unchanged = `unchanged ${fraction(control, decisive.measure)}`
    // A fault arm whose re-runs also passed flipped the verdict itself: nothing more to say about the measure.
    const judged =
      decisive.measure === 'verdict' || decisive.passed === decisive.successes
        ? unchanged
        : `${unchanged}; judged on the checks the run failed, as the scenario's expected outcome assumes the fault`
    return `fixed by ${decisive.label} in ${fraction(decisive)} (${judged}): ${classPhrase(result.class)}`
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
            measure: decisive.measure,
            successes: decisive.successes,
            n: decisive.n,
          },
    classification: result,
    summary: summaryOf(control, decisive, result),
  }
}
