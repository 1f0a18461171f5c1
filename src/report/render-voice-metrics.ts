// A scenario's voice metrics in the run report (issue 21): its per-scenario figures (the promoted row metrics,
// voice-row-metrics.ts) and its entity errors entity by entity. Nothing when the row has no voice metrics (an
// infrastructure row, a row from before they existed); an unknown figure is a dash, never 0.
import { formatInUnit } from '../gate/format.ts'
import { VOICE_ROW_METRICS } from '../reporting/voice-row-metrics.ts'
import { html, jsonText, type SafeHtml } from './html.ts'
import type { ScenarioModel } from './model.ts'

function entities(scenario: ScenarioModel): SafeHtml {
  const outcomes = scenario.voice?.entity_errors.by_entity ?? []
  if (outcomes.length === 0) return html`<p class="meta">The scenario expects no entity.</p>`
  return html`<table class="entities"><thead><tr><th>entity</th><th>expected</th><th>status</th><th>found in</th><th>instead</th></tr></thead><tbody>
${outcomes.map(
  (outcome) =>
    html`<tr class="entity-${outcome.status}"><td>${outcome.kind} <span class="meta">${outcome.source}</span></td><td><code>${String(outcome.expected)}</code></td><td>${outcome.status}</td><td>${outcome.found_in ?? '–'}</td><td>${outcome.status === 'altered' ? html`<code>${jsonText(outcome.observed, true)}</code>` : ''}</td></tr>`,
)}
</tbody></table>`
}

export function voiceMetricsSection(scenario: ScenarioModel): SafeHtml {
  if (scenario.voice === undefined || scenario.voice === null) return html``
  return html`<h3>Voice metrics</h3>
<table class="voice-metrics"><thead><tr><th>metric</th><th class="num">value</th></tr></thead><tbody>
${VOICE_ROW_METRICS.map(
  (metric) =>
    html`<tr><td>${metric.label} <span class="meta">${metric.name}</span></td><td class="num">${formatInUnit(metric.unit, scenario.metrics[metric.name] ?? null)}</td></tr>`,
)}
</tbody></table>
<h4>Entities</h4>
${entities(scenario)}`
}
