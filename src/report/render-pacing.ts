// The harness's pacing error in the run report, beside latency (reporting/extensions/pacing.ts): per scenario,
// the p99 lateness of its own frames next to its latency (with the warning when the row carries one), and under
// the run's latency table how the real-time rows' pacing went, so a reader can tell a slow agent from a busy
// harness. Virtual-clock rows say "not measured" (their frames have no wall-clock slot to be late for).

import { formatMs } from '../gate/format.ts'
import type { PacingError } from '../reporting/extensions/pacing.ts'
import { html, type SafeHtml } from './html.ts'
import type { ScenarioModel } from './model.ts'

/** The table cell beside a scenario's latency: its frames' p99 lateness, marked when it carries the warning. */
export function pacingCell(scenario: ScenarioModel): SafeHtml {
  const { pacing } = scenario
  if (pacing === undefined || pacing === null) {
    const why = pacing === null ? 'virtual clock: no pacing error to measure' : 'not recorded'
    return html`<td class="num" data-value="" title="${why}">–</td>`
  }
  const p99 = formatMs(pacing.p99_ms)
  return pacing.warning === null
    ? html`<td class="num pacing" data-value="${String(pacing.p99_ms ?? '')}">${p99}</td>`
    : html`<td class="num pacing pacing-warning problem" data-value="${String(pacing.p99_ms ?? '')}" title="${pacing.warning.message}">⚠ ${p99}</td>`
}

/** The scenario section's line: the pacing error of its frames and, above the threshold, the warning. */
export function pacingLine(pacing: PacingError | null | undefined): SafeHtml {
  if (pacing === undefined) return html``
  if (pacing === null) {
    return html`<p class="meta pacing">harness pacing: not measured (virtual clock: frames have no wall-clock slot)</p>`
  }
  const figures = `p50 ${formatMs(pacing.p50_ms)}, p99 ${formatMs(pacing.p99_ms)}, max ${formatMs(pacing.max_ms)} over ${pacing.frames} frames`
  return pacing.warning === null
    ? html`<p class="meta pacing">harness pacing: ${figures} (warning above p99 ${pacing.warning_threshold_ms} ms)</p>`
    : html`<p class="problem pacing-warning"><b>Pacing warning on latency</b> (${pacing.warning.metrics.join(', ')}): ${pacing.warning.message}. Frames late by ${figures}.</p>`
}

/** Under the run's latency table: how the real-time rows were paced, and which carry the warning. */
export function pacingSummary(scenarios: readonly ScenarioModel[]): SafeHtml {
  const measured = scenarios.flatMap((scenario) =>
    scenario.pacing === undefined || scenario.pacing === null ? [] : [{ scenario, pacing: scenario.pacing }],
  )
  if (measured.length === 0) return html``
  const worst = Math.max(...measured.map(({ pacing }) => pacing.p99_ms ?? 0))
  const warned = measured.filter(({ pacing }) => pacing.warning !== null)
  const threshold = measured[0]?.pacing.warning_threshold_ms ?? 0
  return html`<p class="${warned.length === 0 ? 'meta' : 'problem'} pacing-summary">Harness pacing (real-time rows): ${measured.length} row(s), worst frame lateness p99 ${formatMs(worst)}; ${
    warned.length === 0
      ? html`none above the ${threshold} ms threshold.`
      : html`<b>${warned.length} row(s) above the ${threshold} ms threshold</b>, whose latency includes the harness's own timing error: ${warned.map(({ scenario }, index) => html`${index === 0 ? '' : ', '}<a href="#${scenario.anchor}">${scenario.scenario_id}</a>`)}.`
  }</p>`
}
