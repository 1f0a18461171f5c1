// The run report page: the summary (pass rate with its interval, infrastructure errors apart, metric
// distributions with n, latency by turn kind against the named bands), the filterable and sortable table, then
// one section per scenario.

import { explanationSection } from '../explain/report-section.ts'
import { formatInUnit, formatMs, formatPercent, formatRatio, UNKNOWN_TEXT } from '../gate/format.ts'
import type { BandCount } from '../gate/latency.ts'
import type { TurnKindLatency } from '../gate/run-turn-latency.ts'
import type { Distribution } from '../reporting/statistics.ts'
import { html, type SafeHtml } from './html.ts'
import type { RunReportModel, ScenarioModel } from './model.ts'
import { page } from './page.ts'
import { faultOutcomesSection } from './render-faults.ts'
import { pacingCell, pacingSummary } from './render-pacing.ts'
import { scenarioSection, statusBadge } from './render-scenario.ts'
import { robustnessSection, trialsSection } from './render-trials.ts'

const valueOrEmpty = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value)

function summary(model: RunReportModel): SafeHtml {
  const { counts, pass_rate: rate } = model
  // With trials the counts are rows (one per trial) and the interval is over scenarios: each card says which.
  const trials = model.pass_rate_over === 'scenarios'
  const over = trials ? html` scenarios (trials are not independent draws)` : html``
  const rows = trials ? html`<span class="meta">rows: one per trial</span>` : html``
  return html`<div class="cards">
<div class="card">pass rate<b>${formatPercent(rate.estimate)}</b><span class="meta">95% CI ${formatPercent(rate.lower)}–${formatPercent(rate.upper)}, n=${rate.n}${over}</span></div>
<div class="card">passed<b>${counts.passed}</b>${rows}</div>
<div class="card">failed<b>${counts.failed}</b>${rows}</div>
<div class="card">infrastructure errors<b>${counts.infrastructure_errors}</b><span class="meta">not failures: no verdict</span></div>
<div class="card">scenarios<b>${model.scenario_count}</b>${trials ? html`<span class="meta">${counts.total} rows</span>` : html``}</div>
</div>`
}

function metricsTable(model: RunReportModel): SafeHtml {
  return html`<table class="metrics"><thead><tr><th>metric</th><th class="num">n</th><th class="num">mean</th><th class="num">P50</th><th class="num">P90</th><th class="num">P95</th></tr></thead><tbody>
${model.metrics.map(
  (metric) =>
    html`<tr><td>${metric.label}</td><td class="num">${metric.n}</td><td class="num">${formatInUnit(metric.unit, metric.mean)}</td><td class="num">${formatInUnit(metric.unit, metric.p50)}</td><td class="num">${formatInUnit(metric.unit, metric.p90)}</td><td class="num">${formatInUnit(metric.unit, metric.p95)}</td></tr>`,
)}
</tbody></table>`
}

function bands(counts: readonly BandCount[]): SafeHtml {
  return html`${counts.map(
    (band) =>
      html`<span class="band">${band.band} ≤ ${band.max_ms} ms: <b>${band.within}/${band.n}</b></span> `,
  )}`
}

/**
 * RUN calls' rows (from their `run_turns` extension): one sample per call, its mean time to a verified answer for
 * that kind of turn. The bands judge single responses, which a call's mean is not, so that cell is a dash.
 */
function runTurnRows(model: RunReportModel): SafeHtml {
  const { run_turns: turns } = model.latency
  if (turns.calls === 0) return html``
  const row = (label: string, kind: TurnKindLatency) => {
    const unanswered =
      kind.calls_without_answer === 0 ? '' : `; ${kind.calls_without_answer} call(s) answered none: no sample`
    const d = kind.call_means
    return html`<tr class="run-turns"><td>${label}<br><span class="meta">n calls, each its mean over its requests; ${kind.requests} request(s) in all${unanswered}</span></td><td class="num">${d.n}</td><td class="num">${formatMs(d.p50)}</td><td class="num">${formatMs(d.p90)}</td><td class="num">${formatMs(d.p95)}</td><td title="the bands judge single responses; a call's mean is not one">${UNKNOWN_TEXT}</td></tr>`
  }
  return html`${row('RUN calls: turns without tool work (time to verified answer)', turns.non_tool_turns)}
${row('RUN calls: tool turns (time to verified answer)', turns.tool_turns)}`
}

function latencyTable(model: RunReportModel): SafeHtml {
  const row = (label: string, d: Distribution, bandCounts: readonly BandCount[]) =>
    html`<tr><td>${label}</td><td class="num">${d.n}</td><td class="num">${formatMs(d.p50)}</td><td class="num">${formatMs(d.p90)}</td><td class="num">${formatMs(d.p95)}</td><td>${bands(bandCounts)}</td></tr>`
  const { latency } = model
  // A RUN run has no single-response rows: its empty per-response rows would only read as 0/0 beside its calls.
  const perResponse = latency.all.n > 0 || latency.run_turns.calls === 0
  return html`<table class="latency"><thead><tr><th>response latency</th><th class="num">n</th><th class="num">P50</th><th class="num">P90</th><th class="num">P95</th><th>within band</th></tr></thead><tbody>
${
  perResponse
    ? html`${row('turns without tool work', latency.conversational, latency.conversational_bands)}
${row('tool turns (delegation or tool call)', latency.tool, [latency.tool_band])}`
    : html``
}
${runTurnRows(model)}
</tbody></table>
${latency.rows_without_turn_latency === 0 ? html`` : html`<p class="meta">${latency.rows_without_turn_latency} multi-response row(s) record only a mean latency and are not in this table.</p>`}`
}

function tableRow(scenario: ScenarioModel): SafeHtml {
  const search =
    `${scenario.scenario_id} ${scenario.title} ${scenario.assistant ?? ''} ${scenario.failed_checks.map((check) => check.id).join(' ')} ${scenario.faults?.classes.join(' ') ?? ''}`.toLowerCase()
  const metric = (name: string, unit: 'ms' | 'ratio') => {
    const value = scenario.metrics[name] ?? null
    return html`<td class="num" data-value="${valueOrEmpty(value)}">${unit === 'ms' ? formatMs(value) : formatRatio(value)}</td>`
  }
  return html`<tr data-status="${scenario.status}" data-search="${search}">
<td data-value="${scenario.status}">${statusBadge(scenario.status)}</td>
<td><a href="#${scenario.anchor}">${scenario.scenario_id}</a></td>
<td class="num">${scenario.trial}</td>
<td>${scenario.title}</td>
${metric('response_latency_ms', 'ms')}
${pacingCell(scenario)}
<td data-value="${scenario.tool_turn ? 1 : 0}">${scenario.tool_turn ? 'yes' : 'no'}</td>
${metric('tool_accuracy', 'ratio')}
${metric('delegation_accuracy', 'ratio')}
${metric('semantic_quality', 'ratio')}
<td>${scenario.failed_checks.map((check) => check.id).join(', ')}${scenario.error === null ? '' : `error: ${scenario.error.stage}`}</td>
</tr>`
}

function scenarioTable(model: RunReportModel): SafeHtml {
  return html`<div class="filters">
<input id="filter-text" type="search" placeholder="filter by id, title, assistant or failed check" aria-label="filter scenarios">
<select id="filter-status" aria-label="status"><option value="">every status</option><option value="passed">passed</option><option value="failed">failed</option><option value="infrastructure_error">infrastructure error</option></select>
<span id="filter-count" class="meta"></span>
</div>
<table id="scenario-table"><thead><tr><th>status</th><th>scenario</th><th class="num">trial</th><th>title</th><th class="num">latency</th><th class="num" title="p99 lateness of the harness's own audio frames (real time)">pacing p99</th><th>tool turn</th><th class="num">tool acc.</th><th class="num">deleg. acc.</th><th class="num">semantic</th><th>failed checks</th></tr></thead>
<tbody>
${model.scenarios.map(tableRow)}
</tbody></table>`
}

/** The run's assistants under test (a run can hold spec files with different ones); nothing when unknown. */
function assistantsLine(assistants: readonly string[]): SafeHtml {
  if (assistants.length === 0) return html``
  const label = assistants.length === 1 ? 'assistant under test' : 'assistants under test'
  return html`<p class="meta assistants">${label}: ${assistants.map((name, index) => html`${index === 0 ? '' : ', '}<b>${name}</b>`)}</p>`
}

export function renderRunReport(model: RunReportModel): string {
  const { run } = model
  return page(
    `live-evals ${run.id}`,
    html`<h1>${run.id}</h1>
<p class="meta">${run.module} · ${run.architecture} · ${run.execution_mode} · dataset ${run.dataset}</p>
${assistantsLine(run.assistants)}
${model.partial === null ? html`` : html`<p class="problem"><b>Partial results:</b> ${model.partial}</p>`}
${summary(model)}
${explanationSection(model.explanation)}
<h2>Metrics</h2>
${metricsTable(model)}
<h2>Latency</h2>
${latencyTable(model)}
${pacingSummary(model.scenarios)}
${trialsSection(model.trials)}
${faultOutcomesSection(model.scenarios, model.trials)}
${robustnessSection(model.robustness)}
<h2>Scenarios</h2>
${scenarioTable(model)}
${model.scenarios.map(scenarioSection)}`,
  )
}
