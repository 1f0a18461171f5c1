// The page a team shows when it decides whether to switch GPT-Live models: the same scenarios on each model, the
// reference first. At the top, one card per model (pass rate with its interval, voice minutes, cost); then, per
// candidate, every metric's delta with its 95% interval and n, coloured better or worse only when the interval
// excludes zero (a move inside the noise is not a finding); the scenarios whose verdict changed; and each
// scenario's status and cost on every model, linked to its section in the run's own report. Numbers come from
// src/gate/compare-models.ts, the same the gate judges.
import type { MetricComparison, ModelComparison } from '../gate/compare-models.ts'
import { formatDeltaInUnit, formatInUnit, formatPercent, UNKNOWN_TEXT } from '../gate/format.ts'
import type { ScenarioCost } from '../reporting/cost.ts'
import { anchorOf, html, type SafeHtml } from './html.ts'
import { page } from './page.ts'
import { statusBadge } from './render-scenario.ts'

export interface ModelReportLinks {
  /** Per model and architecture, the run report's href relative to this page. */
  href(model: string, architecture: string): string | null
}

function money(value: number | null, currency: string): string {
  return value === null ? UNKNOWN_TEXT : `${value.toFixed(4)} ${currency}`
}
const minutes = (value: number | null) => (value === null ? UNKNOWN_TEXT : `${value.toFixed(2)} min`)

/** better / worse when the interval lies on one side of zero; `unclear` otherwise (or unknown). */
function direction(metric: MetricComparison): 'better' | 'worse' | 'unclear' {
  if (metric.lower === null || metric.upper === null || metric.delta === null) return 'unclear'
  const improves = (value: number) => (metric.better === 'higher' ? value > 0 : value < 0)
  if (metric.lower > 0 || metric.upper < 0) return improves(metric.delta) ? 'better' : 'worse'
  return 'unclear'
}

function modelCards(comparison: ModelComparison): SafeHtml {
  const currency = comparison.prices.currency
  return html`<div class="cards" id="model-cards">${comparison.models.map(
    (
      model,
    ) => html`<div class="card" data-model="${model.model}"><span class="meta">${model.model}${model.model === comparison.reference ? ' (reference)' : ''}</span>
<b>${formatPercent(model.pass_rate.estimate)}</b>passed ${model.pass_rate.successes}/${model.pass_rate.n}, 95% [${formatPercent(model.pass_rate.lower)}, ${formatPercent(model.pass_rate.upper)}]<br>
voice ${minutes(model.cost.voice_active_minutes)} active · standby ${model.cost.voice_standby_minutes === null ? 'n/a (WebSocket)' : minutes(model.cost.voice_standby_minutes)}<br>
cost ${money(model.cost.total_cost, currency)} <span class="meta">(voice ${money(model.cost.voice_cost, currency)}, backend ${money(model.cost.backend.cost, currency)}, judge ${money(model.cost.judge.cost, currency)})</span></div>`,
  )}</div>`
}

function metricRows(comparison: ModelComparison): SafeHtml {
  return html`${comparison.candidates.map(
    (candidate) => html`<h2>${candidate.model} vs ${comparison.reference}</h2>
<table class="model-deltas" data-candidate="${candidate.model}"><thead><tr><th>metric</th><th class="num">${comparison.reference}</th><th class="num">${candidate.model}</th><th class="num">delta</th><th class="num">95% interval</th><th class="num">n</th><th>reading</th></tr></thead><tbody>
${candidate.metrics.map((metric) => {
  const reading = direction(metric)
  const value = (v: number | null) =>
    metric.unit === 'ratio' && metric.summary === 'rate' ? formatPercent(v) : formatInUnit(metric.unit, v)
  const interval =
    metric.lower === null || metric.upper === null
      ? UNKNOWN_TEXT
      : `[${formatDeltaInUnit(metric.unit, metric.lower)}, ${formatDeltaInUnit(metric.unit, metric.upper)}]`
  return html`<tr data-metric="${metric.name}"><td>${metric.label}</td><td class="num">${value(metric.reference_value)}</td><td class="num">${value(metric.candidate_value)}</td><td class="num delta-${reading}">${formatDeltaInUnit(metric.unit, metric.delta)}</td><td class="num">${interval}</td><td class="num">${metric.candidate_n}/${metric.reference_n}</td><td class="delta-${reading}">${reading === 'unclear' ? 'no clear difference' : reading}</td></tr>`
})}
</tbody></table>
<h3>Scenarios that changed verdict</h3>
${
  candidate.verdict_changes.length === 0
    ? html`<p class="meta verdict-none">No scenario changed verdict.</p>`
    : html`<table class="verdict-changes"><thead><tr><th>scenario</th><th>title</th><th>${comparison.reference}</th><th>${candidate.model}</th></tr></thead><tbody>
${candidate.verdict_changes.map((change) => html`<tr><td>${change.description}</td><td>${change.title}</td><td>${statusBadge(change.reference)}</td><td>${statusBadge(change.candidate)}</td></tr>`)}
</tbody></table>`
}
${candidate.unpaired.length === 0 ? '' : html`<p class="problem">Run on one model only: ${candidate.unpaired.join('; ')}</p>`}`,
  )}`
}

function scenarioTable(comparison: ModelComparison, links: ModelReportLinks): SafeHtml {
  const currency = comparison.prices.currency
  const cost = (value: ScenarioCost | null) =>
    value === null
      ? UNKNOWN_TEXT
      : `${money(value.total_cost, currency)} · ${minutes(value.voice_active_minutes)}`
  return html`<table id="model-scenarios"><thead><tr><th>scenario</th><th class="num">trial</th><th>architecture</th>${comparison.models.map((model) => html`<th>${model.model}</th>`)}${comparison.models.map((model) => html`<th class="num">cost on ${model.model}</th>`)}</tr></thead><tbody>
${comparison.scenarios.map(
  (scenario) =>
    html`<tr data-scenario="${scenario.key.scenario_id}"><td title="${scenario.title}">${scenario.key.scenario_id}</td><td class="num">${scenario.key.trial}</td><td>${scenario.key.architecture}</td>${scenario.statuses.map(
      (status, index) => {
        const model = comparison.models[index]?.model ?? ''
        const href = links.href(model, scenario.key.architecture)
        const badge = statusBadge(status ?? 'absent')
        return html`<td>${href === null || status === null ? badge : html`<a href="${href}#${anchorOf(scenario.key.scenario_id, scenario.key.trial)}">${badge}</a>`}</td>`
      },
    )}${scenario.costs.map((value) => html`<td class="num">${cost(value)}</td>`)}</tr>`,
)}
</tbody></table>`
}

export function renderModelComparison(comparison: ModelComparison, links: ModelReportLinks): string {
  const others = comparison.models.slice(1).map((model) => model.model)
  const { read_on, sources, currency } = comparison.prices
  return page(
    'live-evals model comparison',
    html`<h1>${others.join(', ')} vs ${comparison.reference}</h1>
<p class="meta">The same scenarios on each model; rows pair by phase, architecture, scenario and trial. A delta is coloured only when its 95% interval excludes zero. Prices (${currency}) read ${read_on} from ${sources.join(', ')}; an unknown price or usage shows ${UNKNOWN_TEXT}, never 0.</p>
${modelCards(comparison)}
${metricRows(comparison)}
<h2>Scenarios and cost</h2>
${scenarioTable(comparison, links)}`,
  )
}
