// The run report's "Why it failed" section, when `live-evals explain` explained the run: the plan's headline, then
// per explained scenario its one-line verdict, its class and what it rests on, and every arm's pass rate and shift
// against the unchanged re-run. The figures are written as in explain.md (format.ts).
import { anchorOf, html, type SafeHtml } from '../report/html.ts'
import { CONTROL_LABEL, controlText, effectText, headlineOf, rateText, shiftText } from './format.ts'
import type { LoadedExplanation } from './load-explanations.ts'
import type { Arm, Explanation } from './schema.ts'

function armRow(arm: Arm, label: string, rate = rateText(arm)): SafeHtml {
  return html`<tr data-effect="${arm.effect ?? 'control'}"><td>${label}</td><td>${rate}</td><td>${shiftText(arm)}</td><td>${effectText(arm.effect)}</td></tr>`
}

function explanationBlock(explanation: Explanation): SafeHtml {
  const trial = explanation.run_rows.failed_trials[0] ?? 1
  const { classification } = explanation
  return html`<div class="explanation" data-class="${classification.class}">
<h3><a href="#${anchorOf(explanation.scenario_id, trial)}">${explanation.scenario_id}</a></h3>
<p><b>${explanation.summary}</b></p>
<p class="meta">class <b>${classification.class}</b>, from ${classification.basis.replace('_', ' ')}: ${classification.note}</p>
<table class="explain-arms"><thead><tr><th>arm</th><th>re-runs</th><th>shift against the unchanged re-run</th><th>effect</th></tr></thead><tbody>
${armRow(
  explanation.control,
  CONTROL_LABEL,
  controlText(
    explanation.control,
    explanation.interventions.map((arm) => arm.measure),
  ),
)}
${explanation.interventions.map((arm) => armRow(arm, arm.label))}
</tbody></table>
${
  explanation.not_applicable.length === 0
    ? html``
    : html`<details><summary>not applicable (${explanation.not_applicable.length})</summary><ul>${explanation.not_applicable.map(
        (entry) => html`<li><code>${entry.intervention}</code>: ${entry.reason}</li>`,
      )}</ul></details>`
}
</div>`
}

export function explanationSection(loaded: LoadedExplanation | null | undefined): SafeHtml {
  if (loaded === null || loaded === undefined) return html``
  const link = html` (<a href="${loaded.summary_href}">explain.md</a>)`
  if (loaded.document === null) {
    return html`<h2 id="explain">Why it failed</h2><p class="problem">${loaded.problem}</p>`
  }
  const document = loaded.document
  return html`<h2 id="explain">Why it failed</h2>
<p class="meta">live-evals explain: ${headlineOf(document)}${link}. Each arm changes one thing and is re-run ${document.trials} times; the class comes from what the interventions changed, never from a judge.</p>
${document.completion.ending === 'complete' ? html`` : html`<p class="problem">${document.completion.message}</p>`}
${document.explanations.map(explanationBlock)}
${
  document.not_explained.length === 0
    ? html``
    : html`<p class="meta">Not explained: ${document.not_explained.map(
        (entry, index) =>
          html`${index === 0 ? '' : '; '}${entry.scenario_id} (${entry.reason}: ${entry.message})`,
      )}</p>`
}`
}
