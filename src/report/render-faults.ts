// Fault outcomes in the run report (issue 22): per scenario, the profile it ran under and every fault injected
// (plane, target, position, when, what it did), beside the caller-experience checks that scored them; per run,
// how the faulted rows fared per fault class and per check, and pass^k per fault class when trials repeated.
import type { FaultKind } from '../config/fault-profiles.ts'
import type { FaultEvent } from '../faults/events.ts'
import { formatMs, formatRatio } from '../gate/format.ts'
import type { RunTrials } from '../reporting/extensions/trials.ts'
import { html, type SafeHtml } from './html.ts'
import type { ScenarioModel } from './model.ts'

/** The checks that score what the caller experienced under faults, and the reference's final-state check. */
export const FAULT_OUTCOME_CHECKS = [
  'no_false_confirmation',
  'verification_after_implausible_result',
  'progress_statement_when_slow',
  'dead_air_while_pending',
  'application_state',
] as const

function effect(event: FaultEvent): string {
  const parts: string[] = []
  if (event.delay_ms !== undefined) parts.push(`held back ${formatMs(event.delay_ms)}`)
  if (event.duration_ms !== undefined)
    parts.push(`${event.kind === 'stream_cut' ? 'lost' : 'burst of'} ${formatMs(event.duration_ms)}`)
  if (event.changed !== undefined) parts.push(`altered ${event.changed.join(', ') || 'nothing'}`)
  if (event.lost_text !== undefined) parts.push(`not heard: “${event.lost_text}”`)
  if (event.call_id !== undefined) parts.push(`call ${event.call_id}`)
  if (event.delegation_id !== undefined) parts.push(`delegation ${event.delegation_id}`)
  return parts.join('; ')
}

/** A scenario's faults: the profile, each injected fault, and how its caller-experience checks came out. */
export function faultsSection(scenario: ScenarioModel): SafeHtml {
  const faults = scenario.faults
  if (faults === null) return html``
  const outcomes = FAULT_OUTCOME_CHECKS.flatMap((id) => {
    const check = scenario.checks.find((candidate) => candidate.id === id)
    return check === undefined || check.status === 'not_applicable' ? [] : [check]
  })
  return html`<h3>Faults</h3>
<p class="meta faults-profile">profile <b>${faults.profile}</b> (seed ${faults.seed}, from the ${faults.source === 'setting' ? 'execution.faults setting' : 'scenario’s fault_profile tag'}); ${faults.injected.length === 0 ? 'it injected nothing in this call' : `${faults.injected.length} fault(s) injected: ${faults.classes.join(', ')}`}</p>
${
  faults.injected.length === 0
    ? html``
    : html`<table class="faults"><thead><tr><th>kind</th><th>plane</th><th>target</th><th class="num">position</th><th class="num">at</th><th>effect</th></tr></thead><tbody>
${faults.injected.map(
  (event) =>
    html`<tr class="fault-${event.plane}"><td>${event.kind}</td><td>${event.plane}</td><td>${event.target}</td><td class="num">${event.index}</td><td class="num">${formatMs(event.at_ms)}</td><td>${effect(event)}</td></tr>`,
)}
</tbody></table>`
}
${
  outcomes.length === 0
    ? html``
    : html`<p class="fault-outcomes">What the caller experienced: ${outcomes.map(
        (check, index) =>
          html`${index === 0 ? '' : ' · '}<span class="check-${check.status}">${check.id} <b>${check.status}</b>${check.required ? '' : ' (reported)'}</span>`,
      )}</p>`
}`
}

interface Tally {
  rows: number
  passed: number
  checks: Map<string, { passed: number; failed: number }>
}

/** Per fault class: the rows that injected it, how many passed, and how each outcome check came out on them. */
export function faultOutcomesSection(
  scenarios: readonly ScenarioModel[],
  trials: RunTrials | null,
): SafeHtml {
  const faulted = scenarios.filter((scenario) => scenario.faults !== null)
  if (faulted.length === 0) return html``
  const byClass = new Map<FaultKind, Tally>()
  for (const scenario of faulted) {
    for (const kind of scenario.faults?.classes ?? []) {
      const tally = byClass.get(kind) ?? { rows: 0, passed: 0, checks: new Map() }
      tally.rows += 1
      if (scenario.status === 'passed') tally.passed += 1
      for (const id of FAULT_OUTCOME_CHECKS) {
        const check = scenario.checks.find((candidate) => candidate.id === id)
        if (check === undefined || (check.status !== 'passed' && check.status !== 'failed')) continue
        const counts = tally.checks.get(id) ?? { passed: 0, failed: 0 }
        counts[check.status] += 1
        tally.checks.set(id, counts)
      }
      byClass.set(kind, tally)
    }
  }
  const passK = new Map((trials?.fault_classes ?? []).map((entry) => [entry.class, entry]))
  const k = trials?.k
  const cell = (tally: Tally, id: string) => {
    const counts = tally.checks.get(id)
    if (counts === undefined) return html`<td class="meta">–</td>`
    return html`<td class="${counts.failed > 0 ? 'problem' : ''}">${counts.passed} passed, ${counts.failed} failed</td>`
  }
  return html`<h2 id="fault-outcomes">Fault outcomes</h2>
<p class="meta">${faulted.length} row(s) ran under a fault profile; ${faulted.filter((scenario) => (scenario.faults?.injected.length ?? 0) === 0).length} of them drew no fault. Per fault class, the rows that injected it and how the checks that score what the caller experienced came out on them${k === undefined ? '' : `, with pass^${k} over their trials`}.</p>
<table id="fault-outcomes-table"><thead><tr><th>fault class</th><th class="num">rows</th><th class="num">passed</th>${k === undefined ? html`` : html`<th class="num">pass^${k}</th>`}${FAULT_OUTCOME_CHECKS.map((id) => html`<th>${id}</th>`)}</tr></thead><tbody>
${[...byClass].map(
  ([kind, tally]) =>
    html`<tr><td>${kind}</td><td class="num">${tally.rows}</td><td class="num">${tally.passed}</td>${k === undefined ? html`` : html`<td class="num">${formatRatio(passK.get(kind)?.pass_k ?? null)}</td>`}${FAULT_OUTCOME_CHECKS.map((id) => cell(tally, id))}</tr>`,
)}
</tbody></table>`
}
