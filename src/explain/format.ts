// How an explanation's figures are written, the same in the Markdown summary, the console and the HTML report.
// Unknown is a dash, never 0 (src/gate/format.ts).
import { formatPercent, UNKNOWN_TEXT } from '../gate/format.ts'
import type { Arm, Effect, ExplainDocument } from './schema.ts'

/**
 * `3/5 (60.0%, 95% CI 23.1%–88.2%)` on the arm's measure; a fault arm's says `resolved`, with the verdicts beside
 * it; `no verdict` when every re-run was an infrastructure error.
 */
export function rateText(arm: Arm): string {
  const errors = arm.infrastructure_errors === 0 ? '' : `, ${arm.infrastructure_errors} infrastructure errors`
  if (arm.n === 0) return `no verdict${errors}`
  const { estimate, lower, upper } = arm.rate
  const interval = `${formatPercent(estimate)}, 95% CI ${formatPercent(lower)}–${formatPercent(upper)}${errors}`
  return arm.measure === 'verdict'
    ? `${arm.passed}/${arm.n} passed (${interval})`
    : `${arm.resolved}/${arm.n} resolved (${interval}); ${arm.passed}/${arm.n} passed`
}

/** The control's counts on both measures, when an arm is judged on the resolved failure. */
export function controlText(control: Arm, measures: readonly Arm['measure'][]): string {
  const text = rateText(control)
  return measures.includes('failure_resolved') ? `${text}; ${control.resolved}/${control.n} resolved` : text
}

const signed = (value: number | null) =>
  value === null
    ? UNKNOWN_TEXT
    : `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value * 100).toFixed(1)} pp`

/** `+100.0 pp (95% CI +38.6 pp to +100.0 pp)`; a dash for the control. */
export function shiftText(arm: Arm): string {
  if (arm.shift === null) return UNKNOWN_TEXT
  const { delta, lower, upper } = arm.shift
  return `${signed(delta)} (95% CI ${signed(lower)} to ${signed(upper)})`
}

const EFFECT_TEXT: Record<Effect, string> = {
  fixes: 'fixes it',
  worsens: 'worse',
  no_shift: 'no shift',
  inconclusive: 'inconclusive',
  unknown: 'unknown',
}

export function effectText(effect: Effect | null): string {
  return effect === null ? 'reference' : EFFECT_TEXT[effect]
}

/** The unchanged re-run's label in tables. */
export const CONTROL_LABEL = 'unchanged re-run (control)'

/** `offline re-runs · k = 5 · seed 1 · 40 re-runs (cap 100) · free` */
export function headlineOf(document: ExplainDocument): string {
  const { budget } = document
  const estimate = budget.estimate
  const cost =
    document.mode === 'offline'
      ? 'free'
      : estimate.cost === null
        ? 'cost unknown'
        : `estimated ${estimate.cost.toFixed(2)} ${estimate.currency}`
  return (
    `${document.mode} re-runs · k = ${document.trials} per arm · seed ${document.seed} · ` +
    `${budget.executed_reruns} of ${budget.planned_reruns} planned re-runs (cap ${budget.max_reruns}) · ${cost}`
  )
}
