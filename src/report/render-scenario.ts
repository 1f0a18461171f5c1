// One scenario's section of the run report: status and failed checks with evidence, the three players, the
// clickable timeline with transcripts, delegations and tool calls, the state difference, semantic scores.

import { artifactPathProblem } from '../artifacts/destinations.ts'
import { formatMs, formatRatio } from '../gate/format.ts'
import { html, jsonText, type SafeHtml } from './html.ts'
import type { ScenarioModel } from './model.ts'
import { faultsSection } from './render-faults.ts'
import { pacingLine } from './render-pacing.ts'
import { timelineSvg } from './render-timeline.ts'
import { voiceMetricsSection } from './render-voice-metrics.ts'

/** An artifact href: the row's relative path, only when it stays inside the run directory. */
export function artifactHref(relativePath: string | null): string | null {
  if (relativePath === null || artifactPathProblem(relativePath) !== null) return null
  return relativePath.split('/').map(encodeURIComponent).join('/')
}

export function statusBadge(status: string): SafeHtml {
  return html`<span class="status status-${status.replace(/[^a-z_]/g, '')}">${status.replace('_', ' ')}</span>`
}

const playerId = (scenario: ScenarioModel) => `${scenario.anchor}-conversation`

function players(scenario: ScenarioModel): SafeHtml {
  const player = (label: string, path: string | null, id: string) => {
    const href = artifactHref(path)
    return href === null
      ? html`<div><label>${label}</label><em>no audio</em></div>`
      : html`<div><label>${label}</label><audio id="${id}" controls preload="none" src="${href}"></audio></div>`
  }
  return html`<div class="players">
${player('conversation (stereo: caller left, assistant right)', scenario.audio.conversation, playerId(scenario))}
${player('caller', scenario.audio.caller, `${scenario.anchor}-caller`)}
${player('assistant', scenario.audio.assistant, `${scenario.anchor}-assistant`)}
</div>`
}

function checks(scenario: ScenarioModel): SafeHtml {
  if (scenario.checks.length === 0) return html`<p class="meta">No checks were recorded.</p>`
  return html`<table class="checks"><thead><tr><th>check</th><th>status</th><th>required</th><th>reason</th><th>evidence</th></tr></thead><tbody>
${scenario.checks.map(
  (check) =>
    html`<tr class="check-${check.status}"><td>${check.id}</td><td>${check.status === 'failed' ? statusBadge('failed') : check.status}</td><td>${check.required ? 'yes' : 'no'}</td><td>${check.reason ?? ''}</td><td>${
      check.evidence === null ||
      (typeof check.evidence === 'object' && Object.keys(check.evidence as object).length === 0)
        ? ''
        : html`<pre>${jsonText(check.evidence)}</pre>`
    }</td></tr>`,
)}
</tbody></table>`
}

function conversation(scenario: ScenarioModel): SafeHtml {
  const { timeline } = scenario
  const player = playerId(scenario)
  return html`${timelineSvg(timeline, { player })}
<ol class="lines">
${timeline.lines.map(
  (line) =>
    html`<li${line.start_ms === null ? html`` : html` data-seek-ms="${Math.round(line.start_ms)}" data-player="${player}" tabindex="0"`}><span class="who who-${line.role}">${line.role}</span> <span class="meta">${formatMs(line.start_ms)}</span> ${line.text}</li>`,
)}
</ol>
${timeline.delegations.length === 0 ? html`` : html`<h3>Delegations</h3><ul>${timeline.delegations.map((delegation) => html`<li data-seek-ms="${Math.round(delegation.start_ms)}" data-player="${player}" tabindex="0">${delegation.id}: opened ${formatMs(delegation.start_ms)}, settled ${formatMs(delegation.settled_ms)}</li>`)}</ul>`}
${
  timeline.tool_calls.length === 0
    ? html``
    : html`<h3>Tool calls</h3>${timeline.tool_calls.map(
        (call) =>
          html`<details${call.status === 'failed' ? html` open` : html``}><summary>${call.name} — ${call.status}${call.at_ms === null ? '' : ` at ${Math.round(call.at_ms)} ms`}${call.call_id === null ? '' : ` (${call.call_id})`}${call.fault === null ? '' : ` — injected fault: ${call.fault}`}</summary><h4>arguments</h4><pre>${jsonText(call.arguments)}</pre><h4>output</h4><pre>${jsonText(call.output)}</pre></details>`,
      )}`
}`
}

/**
 * The expected state against the final one: the differing paths the application_state check listed when it
 * failed (the grader's own rules decided them), or that it held.
 */
function expectedVsFinal(scenario: ScenarioModel): SafeHtml {
  const check = scenario.checks.find((candidate) => candidate.id === 'application_state')
  if (check === undefined || check.status === 'not_applicable') return html``
  if (check.status === 'passed') return html`<p>The final state matches the expected state.</p>`
  const evidence = check.evidence
  const differences =
    typeof evidence === 'object' && evidence !== null && 'differences' in evidence
      ? (evidence as { differences: unknown }).differences
      : null
  if (!Array.isArray(differences) || differences.length === 0) return html``
  return html`<h4>expected vs final</h4><ul class="state-expected">${differences.map(
    (line) => html`<li><code>${String(line)}</code></li>`,
  )}</ul>`
}

function state(scenario: ScenarioModel): SafeHtml {
  if (scenario.state === null) return html`<p class="meta">Application state was not recorded.</p>`
  const { changes, initial, final } = scenario.state
  const value = (v: unknown) => (v === undefined ? '' : html`<code>${jsonText(v, true)}</code>`)
  return html`${expectedVsFinal(scenario)}
<h4>initial vs final</h4>
${
  changes.length === 0
    ? html`<p>The state did not change.</p>`
    : html`<table class="state-diff"><thead><tr><th>path</th><th>change</th><th>initial</th><th>final</th></tr></thead><tbody>${changes.map(
        (change) =>
          html`<tr class="change-${change.kind}"><td><code>${change.path}</code></td><td>${change.kind}</td><td>${'before' in change ? value(change.before) : ''}</td><td>${'after' in change ? value(change.after) : ''}</td></tr>`,
      )}</tbody></table>`
}
<details><summary>initial and final state</summary><h4>initial</h4><pre>${jsonText(initial)}</pre><h4>final</h4><pre>${jsonText(final)}</pre></details>`
}

function semantic(scenario: ScenarioModel): SafeHtml {
  const scored = scenario.semantic.dimensions.filter(
    (dimension) => dimension.score !== null || dimension.status !== 'not_applicable',
  )
  if (scored.length === 0) return html`<p class="meta">No semantic judge applied.</p>`
  return html`<p>Semantic quality: <b>${formatRatio(scenario.semantic.score)}</b></p>
<table><thead><tr><th>dimension</th><th>status</th><th class="num">score</th><th>rationale</th></tr></thead><tbody>
${scored.map((dimension) => html`<tr><td>${dimension.dimension}</td><td>${dimension.status}</td><td class="num">${formatRatio(dimension.score)}</td><td>${dimension.rationale}</td></tr>`)}
</tbody></table>`
}

/** A row its spec declared must fail: whether it failed exactly as declared (the row keeps its real verdict). */
function expectedFailureLine(scenario: ScenarioModel): SafeHtml {
  const declared = scenario.expected_failure
  if (declared === null) return html``
  return declared.met
    ? html`<p class="meta expected-failure">Expected failure: the spec declared this scenario fails on ${declared.checks.join(', ')}, and it did (the test passed; this row stays failed).</p>`
    : html`<p class="problem expected-failure">Declared to fail on ${declared.checks.join(', ')}, but it did not fail that way.</p>`
}

export function scenarioSection(scenario: ScenarioModel): SafeHtml {
  const trial = scenario.trial === 1 ? '' : ` (trial ${scenario.trial})`
  return html`<section class="scenario" id="${scenario.anchor}" data-status="${scenario.status}">
<h2>${statusBadge(scenario.status)} ${scenario.scenario_id}${trial}</h2>
<p class="meta">${scenario.title}${scenario.rationale === null ? '' : ` — ${scenario.rationale}`}</p>
${scenario.assistant === null ? html`` : html`<p class="meta assistant">assistant under test: <b>${scenario.assistant}</b></p>`}
${scenario.error === null ? html`` : html`<p class="problem">Error at <b>${scenario.error.stage}</b>: ${scenario.error.message}</p>`}
${scenario.problems.map((problem) => html`<p class="problem">Not shown: ${problem}</p>`)}
${pacingLine(scenario.pacing)}
${scenario.failed_checks.length === 0 ? html`` : html`<p><b>Failed checks:</b> ${scenario.failed_checks.map((check) => check.id).join(', ')}</p>`}
${expectedFailureLine(scenario)}
${players(scenario)}
<h3>Conversation</h3>
${conversation(scenario)}
${voiceMetricsSection(scenario)}
${faultsSection(scenario)}
<h3>Checks</h3>
${checks(scenario)}
<h3>Application state</h3>
${state(scenario)}
<h3>Semantic scores</h3>
${semantic(scenario)}
</section>`
}
