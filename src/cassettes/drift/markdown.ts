// The drift report's Markdown summary, for a GitHub step summary or a PR comment, in the gate's manner: the
// outcome, then per phase the verdicts, the figures recorded vs now with their deltas, the rows whose delegation
// or tool calls changed, and the protocol findings (what the offline server should learn). Pure.
import { formatDeltaInUnit, formatInUnit } from '../../gate/format.ts'
import { markdownCell } from '../../gate/markdown.ts'
import type { MetricUnit } from '../../reporting/row-metrics.ts'
import type { Figure, RowChange } from './metric-drift.ts'
import type { DriftReport, PhaseDrift } from './report.ts'

const OUTCOME_LINE = {
  no_drift: '✅ **No drift**: the service answered as recorded',
  drift: '⚠️ **Drift**: the service no longer answers as recorded',
  incomplete: '❓ **Incomplete**: a phase could not be compared',
} as const

const MAX_LISTED = 20

function figureRow(label: string, unit: MetricUnit, figure: Figure): string {
  return (
    `| ${label} | ${figure.n.recorded} / ${figure.n.now} | ${formatInUnit(unit, figure.recorded)} | ` +
    `${formatInUnit(unit, figure.now)} | ${formatDeltaInUnit(unit, figure.delta)} | ${figure.drifted ? 'drift' : ''} |`
  )
}

function changes(lines: string[], title: string, rows: readonly RowChange[]): void {
  if (rows.length === 0) return
  lines.push('', `**${title}** (${rows.length})`, '', '| row | recorded | now |', '| --- | --- | --- |')
  for (const row of rows.slice(0, MAX_LISTED)) {
    lines.push(`| ${markdownCell(row.row)} | ${markdownCell(row.recorded)} | ${markdownCell(row.now)} |`)
  }
  if (rows.length > MAX_LISTED) lines.push(`| and ${rows.length - MAX_LISTED} more | | |`)
}

function phaseLines(phase: PhaseDrift): string[] {
  const lines = [
    `### ${phase.phase.toUpperCase()}: ${phase.cassettes.length} cassette(s) recorded again`,
    '',
    `Recordings \`${markdownCell(phase.recordings)}\`, recorded again into \`${markdownCell(phase.rerecorded)}\`.`,
  ]
  if (phase.incomplete !== null) lines.push('', `Not compared: ${markdownCell(phase.incomplete)}`)
  const metrics = phase.metrics
  if (metrics !== null) {
    lines.push(
      '',
      `**Verdicts** ${metrics.pass.recorded}/${metrics.paired} passed as recorded, ${metrics.pass.now}/${metrics.paired} now`,
      '',
      '| metric | n recorded / now | recorded | now | delta | |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
      figureRow('response latency P50', 'ms', metrics.latency_p50_ms),
      figureRow('response latency P95', 'ms', metrics.latency_p95_ms),
      figureRow('response rate', 'ratio', metrics.response_rate),
      figureRow('delegation accuracy', 'ratio', metrics.delegation_accuracy),
      figureRow('yield rate (RUN barge-ins)', 'ratio', metrics.yield_rate),
    )
    changes(lines, 'Verdicts changed', metrics.pass.changed)
    changes(lines, 'Delegations changed', metrics.delegation_changes)
    changes(lines, 'Tool calls or arguments changed', metrics.tool_argument_changes)
    for (const [what, rows] of [
      ['Only in the recordings', metrics.only_recorded],
      ['Only now', metrics.only_now],
    ] as const) {
      if (rows.length > 0)
        lines.push('', `${what}: ${rows.map((row) => `\`${markdownCell(row)}\``).join(', ')}`)
    }
  }
  lines.push('', '**Protocol drift** (what the service sent that the offline server does not model)')
  const unreadIds = phase.protocol_unread.map((id) => `\`${markdownCell(id)}\``).join(', ')
  const unread = unreadIds === '' ? '' : `; not read, so not checked: ${unreadIds}`
  if (phase.protocol === null) {
    const why =
      unreadIds === ''
        ? 'the phase was not compared'
        : `none of the new recordings could be read (${unreadIds})`
    lines.push('', `unknown, not checked: ${why}`)
  } else if (phase.protocol.length === 0) {
    const read = phase.cassettes.length - phase.protocol_unread.length
    lines.push(
      '',
      `none in the ${read} new recording(s) read: every event type and field the service sent is modelled${unread}`,
    )
  } else {
    lines.push(
      '',
      '| kind | event | path | frames | first seen | detail |',
      '| --- | --- | --- | ---: | --- | --- |',
    )
    for (const finding of phase.protocol.slice(0, MAX_LISTED)) {
      const first = `${finding.first.cassette} ${finding.first.session} #${finding.first.seq}`
      lines.push(
        `| ${finding.kind} | ${markdownCell(finding.event_type)} | ${markdownCell(finding.path || '—')} | ` +
          `${finding.count} | ${markdownCell(first)} | ${markdownCell(finding.detail)} |`,
      )
    }
    if (phase.protocol.length > MAX_LISTED)
      lines.push(`| and ${phase.protocol.length - MAX_LISTED} more | | | | | |`)
    if (unreadIds !== '') lines.push('', `Not read, so not checked: ${unreadIds}`)
  }
  return lines
}

export function driftMarkdown(report: DriftReport): string {
  const lines = ['## live-evals drift', '', OUTCOME_LINE[report.outcome]]
  for (const phase of report.phases) lines.push('', ...phaseLines(phase))
  return `${lines.join('\n')}\n`
}
