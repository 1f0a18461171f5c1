// The budget of an explain, decided before anything runs: each failed scenario needs (1 + its applicable
// interventions) × k re-runs; scenarios are admitted in the run's order while their re-runs fit under the cap
// (whole scenarios only: half an explanation explains nothing), and the rest are reported as not explained.
// Live, the estimate prices each admitted re-run like the failed row it repeats, from the usage that row recorded
// (src/reporting/cost.ts and the price table); an unknown price or usage makes the total unknown, never 0.
// Offline re-runs talk to the loopback server and are free.
import type { PriceTable } from '../config/prices.ts'
import { voicePrices } from '../config/prices.ts'
import { costContextOf, scenarioCost } from '../reporting/cost.ts'
import type { ArmPlan, RowFacts } from './interventions.ts'
import type { ExplainDocument, InterventionId } from './schema.ts'
import type { FailedScenario, SourceRun } from './source-run.ts'

export interface ScenarioPlan {
  failed: FailedScenario
  facts: RowFacts
  arms: ArmPlan[]
  notApplicable: { intervention: InterventionId; reason: string }[]
  /** (1 + arms) × k. */
  reruns: number
}

export interface BudgetedPlan {
  admitted: ScenarioPlan[]
  /** Scenarios that did not fit under the cap, in order. */
  over: ScenarioPlan[]
  planned: number
  admittedReruns: number
}

export function budget(plans: readonly ScenarioPlan[], maxReruns: number): BudgetedPlan {
  const admitted: ScenarioPlan[] = []
  let used = 0
  let index = 0
  for (; index < plans.length; index++) {
    const plan = plans[index] as ScenarioPlan
    if (used + plan.reruns > maxReruns) break
    admitted.push(plan)
    used += plan.reruns
  }
  return {
    admitted,
    over: plans.slice(index),
    planned: plans.reduce((sum, plan) => sum + plan.reruns, 0),
    admittedReruns: used,
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** RUN: the simulated caller's own GPT-Live session, billed like the assistant's; 0 minutes offline. */
function callerMinutes(details: Record<string, unknown>): number | null {
  if (details.caller === undefined || details.caller === null) return 0
  const ms = isObject(details.caller) ? details.caller.audio_duration_ms : null
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms / 60_000 : null
}

function sumKnown(values: readonly (number | null)[]): number | null {
  return values.some((value) => value === null) ? null : (values as number[]).reduce((a, b) => a + b, 0)
}

export function costEstimate(
  run: SourceRun,
  plan: BudgetedPlan,
  mode: 'offline' | 'live',
  prices: PriceTable,
): ExplainDocument['budget']['estimate'] {
  if (mode === 'offline') {
    return {
      currency: prices.currency,
      cost: 0,
      voice_minutes: 0,
      note: 'offline re-runs talk to the offline GPT-Live server on loopback: free',
    }
  }
  const context = costContextOf(run.document.run.configuration, prices)
  const voice = context.live_model === null ? null : voicePrices(prices, context.live_model)
  const perScenario = plan.admitted.map((scenario) => {
    // Re-runs are not judged: the judge's part of the recorded cost is left out.
    const cost = scenarioCost(scenario.failed.failedRow, [], context)
    // A caller replayed from its cassette (replay.caller) holds no session of its own.
    const caller = scenario.facts.callerReplayed ? 0 : callerMinutes(scenario.failed.details)
    const callerCost =
      caller === null ? null : caller === 0 ? 0 : voice?.active == null ? null : caller * voice.active
    const minutes = sumKnown([cost.voice_active_minutes, caller])
    const total = sumKnown([cost.total_cost, callerCost])
    return {
      minutes: minutes === null ? null : minutes * scenario.reruns,
      cost: total === null ? null : total * scenario.reruns,
    }
  })
  const cost = sumKnown(perScenario.map((entry) => entry.cost))
  return {
    currency: prices.currency,
    cost,
    voice_minutes: sumKnown(perScenario.map((entry) => entry.minutes)),
    note:
      `each re-run priced like the failed row it repeats (its recorded voice minutes and backend tokens), ` +
      `prices read ${prices.read_on}` +
      (cost === null ? '; a price or a usage figure is unknown, so the total is unknown' : ''),
  }
}
