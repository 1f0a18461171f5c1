// One page comparing several runs of the same scenarios (two architectures, or before and after): per scenario
// and trial, the status in each run; per metric, each run's mean with n and its delta from the first run.

import { formatDeltaInUnit, formatInUnit } from '../gate/format.ts'
import { html, type SafeHtml } from './html.ts'
import type { RunReportModel, ScenarioModel } from './model.ts'
import { page } from './page.ts'
import { statusBadge } from './render-scenario.ts'

export interface ComparedRun {
  model: RunReportModel
  /** Link to the run's own report, relative to the comparison page. */
  report_href: string
}

const label = (model: RunReportModel) => `${model.run.id} (${model.run.architecture})`

function statusTable(runs: readonly ComparedRun[]): SafeHtml {
  // Rows compare by scenario and trial only: the point is to set architectures side by side.
  const key = (scenario: ScenarioModel) => JSON.stringify([scenario.scenario_id, scenario.trial])
  const order: ScenarioModel[] = []
  const seen = new Set<string>()
  for (const run of runs) {
    for (const scenario of run.model.scenarios) {
      if (seen.has(key(scenario))) continue
      seen.add(key(scenario))
      order.push(scenario)
    }
  }
  const lookups = runs.map((run) => new Map(run.model.scenarios.map((scenario) => [key(scenario), scenario])))
  return html`<table id="comparison-table"><thead><tr><th>scenario</th><th class="num">trial</th>${runs.map((run) => html`<th>${label(run.model)}</th>`)}<th>agreement</th></tr></thead><tbody>
${order.map((scenario) => {
  const cells = lookups.map((lookup) => lookup.get(key(scenario)))
  const statuses = new Set(cells.map((cell) => cell?.status ?? 'absent'))
  return html`<tr><td>${scenario.scenario_id}</td><td class="num">${scenario.trial}</td>${cells.map(
    (cell, index) =>
      cell === undefined
        ? html`<td>${statusBadge('absent')}</td>`
        : html`<td><a href="${(runs[index] as ComparedRun).report_href}#${cell.anchor}">${statusBadge(cell.status)}</a></td>`,
  )}<td>${statuses.size === 1 ? 'same' : 'differs'}</td></tr>`
})}
</tbody></table>`
}

function metricTable(runs: readonly ComparedRun[]): SafeHtml {
  const first = runs[0] as ComparedRun
  return html`<table><thead><tr><th>metric</th>${runs.map((run, index) => html`<th class="num">${label(run.model)}${index === 0 ? '' : ' (Δ vs first)'}</th>`)}</tr></thead><tbody>
${first.model.metrics.map((metric, metricIndex) => {
  const base = metric.mean
  return html`<tr><td>${metric.label}</td>${runs.map((run, index) => {
    const summary = run.model.metrics[metricIndex]
    const mean = summary?.mean ?? null
    const delta = index === 0 || mean === null || base === null ? null : mean - base
    return html`<td class="num">${formatInUnit(metric.unit, mean)} <span class="meta">n=${summary?.n ?? 0}</span>${delta === null ? '' : html` <b>${formatDeltaInUnit(metric.unit, delta)}</b>`}</td>`
  })}</tr>`
})}
<tr><td>pass rate</td>${runs.map((run) => html`<td class="num">${run.model.counts.passed}/${run.model.counts.total}</td>`)}</tr>
</tbody></table>`
}

export function renderComparison(runs: readonly ComparedRun[]): string {
  if (runs.length === 0) throw new Error('renderComparison needs at least one run')
  return page(
    'live-evals comparison',
    html`<h1>Comparison of ${runs.length} runs</h1>
<ul>${runs.map((run) => html`<li><a href="${run.report_href}">${label(run.model)}</a>: ${run.model.run.module}, ${run.model.counts.passed}/${run.model.counts.total} passed, ${run.model.counts.infrastructure_errors} infrastructure errors</li>`)}</ul>
<h2>Scenarios</h2>
${statusTable(runs)}
<h2>Metrics</h2>
${metricTable(runs)}`,
  )
}
