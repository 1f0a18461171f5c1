// The gate's Markdown summary, for a GitHub step summary or a PR comment: the outcome and its named checks, the
// pass rate with its interval, counts per phase and architecture, response latency with n, the baseline table
// and links to the HTML reports. Pure: the command decides where it goes.

import type { GateReport } from './evaluate.ts'
import { formatDeltaInUnit, formatInUnit, formatMs, formatPercent, formatRatio } from './format.ts'
import { describeKey } from './row-keys.ts'
import type { RunTurnLatency } from './run-turn-latency.ts'

/** Text safe inside a Markdown table cell: no pipes, no raw HTML, no line breaks. */
export function markdownCell(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ')
}

/** Scenario names listed per baseline category; a step summary stays readable with hundreds of rows. */
const MAX_LISTED = 20

const OUTCOME_LINE = {
  pass: '✅ **Gate passed**',
  fail: '❌ **Gate failed**',
  inconclusive: '⚠️ **Gate inconclusive**',
} as const

/**
 * RUN calls' time to a verified answer by turn kind (their `run_turns` extension), one sample per call: its mean.
 * Nothing when no row recorded turns, so CRAWL and WALK summaries stay as they were.
 */
function runTurnLines(turns: RunTurnLatency): string[] {
  if (turns.calls === 0) return []
  return (
    [
      ['RUN calls, without tool work (mean per call)', turns.non_tool_turns],
      ['RUN calls, tool turns (mean per call)', turns.tool_turns],
    ] as const
  ).map(([label, { call_means: d, requests, calls_without_answer: unanswered }]) => {
    // As in the report: a call that answered none of its requests of a kind gives no sample, and says so.
    const none = unanswered === 0 ? '' : `; ${unanswered} call(s) answered none, no sample`
    return `| ${label}, ${requests} requests${none} | ${d.n} | ${formatMs(d.p50)} | ${formatMs(d.p90)} | ${formatMs(d.p95)} |`
  })
}

export interface MarkdownLinks {
  /** HTML report per results file source, as a path or URL to link to; absent when none was written. */
  reports: ReadonlyMap<string, string>
}

export function gateMarkdown(report: GateReport, links: MarkdownLinks = { reports: new Map() }): string {
  const lines: string[] = ['## live-evals gate', '', OUTCOME_LINE[report.outcome], '']
  if (report.checks.length > 0) {
    lines.push('| check | outcome | detail |', '| --- | --- | --- |')
    for (const check of report.checks) {
      lines.push(`| ${check.name} | ${check.outcome} | ${markdownCell(check.message)} |`)
    }
    lines.push('')
  }
  const rate = report.pass_rate
  lines.push(
    `**Pass rate** ${rate.successes}/${rate.n} = ${formatPercent(rate.estimate)} ` +
      `(95% Wilson interval ${formatPercent(rate.lower)}–${formatPercent(rate.upper)})` +
      (report.scenario_pass_rate === null
        ? ''
        : `; with repeated trials, over ${report.scenario_pass_rate.n} scenarios (each its pass fraction over ` +
          `its trials) ${formatPercent(report.scenario_pass_rate.estimate)} ` +
          `(95% Wilson interval ${formatPercent(report.scenario_pass_rate.lower)}–${formatPercent(report.scenario_pass_rate.upper)})`),
    '',
    '| phase | architecture | rows | passed | failed | infrastructure errors |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  )
  for (const group of report.groups) {
    lines.push(
      `| ${markdownCell(group.phase)} | ${markdownCell(group.architecture)} | ${group.total} | ${group.passed} | ` +
        `${group.failed} | ${group.infrastructure_errors} |`,
    )
  }
  const { all, conversational, tool } = report.latency
  lines.push(
    '',
    '| response latency | n | P50 | P90 | P95 |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...(
      [
        ['all responses', all],
        ['without tool work', conversational],
        ['tool turns', tool],
      ] as const
    ).map(
      ([label, d]) => `| ${label} | ${d.n} | ${formatMs(d.p50)} | ${formatMs(d.p90)} | ${formatMs(d.p95)} |`,
    ),
    ...runTurnLines(report.latency.run_turns),
  )
  const comparison = report.comparison
  if (comparison !== null) {
    lines.push('', '### Against the baseline', '')
    const named = (label: string, keys: typeof comparison.regressed) => {
      const shown = keys.slice(0, MAX_LISTED).map((key) => `\`${markdownCell(describeKey(key))}\``)
      if (keys.length > MAX_LISTED) shown.push(`and ${keys.length - MAX_LISTED} more`)
      lines.push(`- ${label} (${keys.length}): ${keys.length === 0 ? 'none' : shown.join(', ')}`)
    }
    named('Regressed', comparison.regressed)
    named('Recovered', comparison.recovered)
    named('Missing', comparison.missing)
    named('New', comparison.added)
    lines.push(
      '',
      '| metric | n | baseline | now | delta | improved | regressed |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    )
    for (const delta of comparison.metrics) {
      lines.push(
        `| ${delta.label} (${delta.better} is better) | ${delta.n} | ${formatInUnit(delta.unit, delta.baseline_mean)} | ` +
          `${formatInUnit(delta.unit, delta.current_mean)} | ${formatDeltaInUnit(delta.unit, delta.delta)} | ${delta.improved} | ${delta.regressed} |`,
      )
    }
  }
  lines.push('', '### Runs', '')
  for (const file of report.files) {
    const link = links.reports.get(file.source)
    const reportText = link === undefined ? 'no HTML report' : `[HTML report](${encodeURI(link)})`
    const partial = file.partial === null ? '' : ` — partial: ${markdownCell(file.partial)}`
    const trials =
      file.trials === null
        ? ''
        : ` — ${file.trials.k} trials: pass^1 ${formatRatio(file.trials.pass_1)}, pass^${file.trials.k} ${formatRatio(file.trials.pass_k)}`
    lines.push(
      `- \`${markdownCell(file.run_id)}\` (${markdownCell(file.source)}): ${reportText}${trials}${partial}`,
    )
  }
  return `${lines.join('\n')}\n`
}
