// The report's repeated-trials and condition-robustness views: pass^1/pass^k per scenario and overall with each
// metric's spread over the trials, and per source scenario whether it passed under every condition it ran with.

import { formatInUnit, formatPercent, formatRatio, formatSpread } from '../gate/format.ts'
import type { ConditionRobustness } from '../reporting/extensions/condition-robustness.ts'
import type { RunTrials } from '../reporting/extensions/trials.ts'
import { robustnessRatioText } from '../reporting/robustness-ratio.ts'
import { ROW_METRICS } from '../reporting/row-metrics.ts'
import { html, type SafeHtml } from './html.ts'

// The per-scenario table shows the metrics a reader compares across trials first; the overall table shows all.
const SCENARIO_SPREAD_METRICS = ['response_latency_ms', 'tool_accuracy', 'semantic_quality'] as const

const metricNamed = (name: string) => ROW_METRICS.find((metric) => metric.name === name)

export function trialsSection(trials: RunTrials | null): SafeHtml {
  if (trials === null) return html``
  const k = trials.k
  const spreadHeaders = SCENARIO_SPREAD_METRICS.map(
    (name) => html`<th>${metricNamed(name)?.label ?? name}</th>`,
  )
  return html`<h2 id="trials">Repeated trials</h2>
<div class="cards">
<div class="card">pass^1<b>${formatRatio(trials.pass_1)}</b><span class="meta">mean over ${trials.scenarios.length} scenarios</span></div>
<div class="card">pass^${k}<b>${formatRatio(trials.pass_k)}</b><span class="meta">all ${k} trials pass; mean over ${trials.pass_k_scenarios} scenarios with ${k} trials</span></div>
</div>
<p class="meta">pass^k is the unbiased estimate C(c,k)/C(n,k) of the chance that k trials drawn from a scenario's n trials, c of which passed, all pass. A scenario with fewer than ${k} trials has no pass^${k}.</p>
<table id="trials-table"><thead><tr><th>scenario</th><th class="num">trials</th><th class="num">passed</th><th class="num">infra.</th><th class="num">pass^1</th><th class="num">pass^${k}</th><th>pass^j, j = 1..n</th>${spreadHeaders}</tr></thead><tbody>
${trials.scenarios.map(
  (scenario) =>
    html`<tr><td>${scenario.scenario_id}</td><td class="num">${scenario.trials}</td><td class="num">${scenario.passed}</td><td class="num">${scenario.infrastructure_errors}</td><td class="num">${formatRatio(scenario.pass_1)}</td><td class="num">${formatRatio(scenario.pass_k)}</td><td>${scenario.pass_hat.map(formatRatio).join(' · ')}</td>${SCENARIO_SPREAD_METRICS.map(
      (name) => {
        const spread = scenario.metrics[name]
        const unit = metricNamed(name)?.unit ?? 'ratio'
        return html`<td>${spread === undefined ? '' : formatSpread(unit, spread)}</td>`
      },
    )}</tr>`,
)}
</tbody></table>
<table class="metrics" id="trials-spread"><thead><tr><th>metric over every trial</th><th class="num">n</th><th class="num">mean</th><th class="num">stdev</th><th class="num">min</th><th class="num">P50</th><th class="num">P90</th><th class="num">max</th></tr></thead><tbody>
${ROW_METRICS.map((metric) => {
  const spread = trials.metrics[metric.name]
  if (spread === undefined) return html``
  const cell = (value: number | null) => html`<td class="num">${formatInUnit(metric.unit, value)}</td>`
  return html`<tr><td>${metric.label}</td><td class="num">${spread.n}</td>${cell(spread.mean)}${cell(spread.stdev)}${cell(spread.min)}${cell(spread.p50)}${cell(spread.p90)}${cell(spread.max)}</tr>`
})}
</tbody></table>`
}

export function robustnessSection(robustness: ConditionRobustness | null): SafeHtml {
  if (robustness === null) return html``
  const conditions = robustness.conditions
  return html`<h2 id="robustness">Condition robustness</h2>
<div class="cards"><div class="card">robust<b>${robustnessRatioText(robustness)}</b><span class="meta">${formatPercent(robustness.robust_rate)} of the known passed under every condition they ran with${robustness.unknown ? '; unknown: a row made from it did not run' : ''}</span></div></div>
<table id="robustness-table"><thead><tr><th>source scenario</th><th>robust</th>${conditions.map((condition) => html`<th>${condition}</th>`)}</tr></thead><tbody>
${robustness.scenarios.map((scenario) => {
  const cells = conditions.map((condition) => {
    const outcomes = scenario.conditions.filter((outcome) => outcome.condition === condition)
    if (outcomes.length === 0) return html`<td class="meta">not run</td>`
    const rows = outcomes.reduce((sum, outcome) => sum + outcome.rows, 0)
    const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0)
    return html`<td data-passed="${String(passed === rows)}">${passed}/${rows} passed</td>`
  })
  return html`<tr data-robust="${String(scenario.robust)}"><td>${scenario.source_scenario_id}</td><td>${scenario.robust === null ? `unknown: did not run under ${(scenario.not_run_conditions ?? []).join(', ')}` : scenario.robust ? 'yes' : `no: ${scenario.failed_conditions.join(', ')}`}</td>${cells}</tr>`
})}
</tbody></table>`
}
