// A JUnit XML file of a results document, with each scenario's metrics as `<property>`s of its test case.
//
// Decision: a writer of our own rather than annotations. Vitest's JUnit reporter writes properties only from
// test annotations, and a scenario's row is final only after its verdict (the last cleanup of the test), so
// annotations would carry metrics of a row that may still change, and a test that never produced a row would
// have none. Written from results.json instead, the JUnit file and results.json cannot disagree: one
// testcase per row (a trial is its own testcase), `failure` for a failed row, `error` for an infrastructure
// error. Vitest's own JUnit reporter keeps working beside it. An unknown metric is written as "null", never 0.

import { EXTENSION_KEY } from './extensions/registry.ts'
import type { ResultItem, ResultsDocument } from './result-schema.ts'
import { robustnessRatioText } from './robustness-ratio.ts'
import { rowKeyOf } from './row-key.ts'
import { ROW_METRICS } from './row-metrics.ts'

// XML 1.0 cannot carry most control characters even escaped: they are dropped, so no transcript breaks the file.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to remove
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (character) => ESCAPES[character] as string)
}

type Property = [name: string, value: string | number | boolean | null]

const propertyText = (value: Property[1]) => (value === null ? 'null' : String(value))

function properties(entries: readonly Property[], indent: string): string {
  const lines = entries.map(
    ([name, value]) =>
      `${indent}  <property name="${xmlText(name)}" value="${xmlText(propertyText(value))}"/>`,
  )
  return `${indent}<properties>\n${lines.join('\n')}\n${indent}</properties>`
}

/** What a testcase carries: its key, status, every row metric and the count pairs, the failed checks. */
export function scenarioProperties(row: ResultItem): Property[] {
  const { trial } = rowKeyOf(row)
  const task = row.metrics.task
  const pair = (value: { actual: number; expected: number } | null) =>
    value === null ? null : `${value.actual}/${value.expected}`
  const failed = (row.assessment?.checks ?? [])
    .filter((check) => check.status === 'failed')
    .map((check) => check.id)
  return [
    ['scenario_id', row.scenario_id],
    ['trial', trial],
    ['status', row.status],
    ['task_completed', row.status === 'infrastructure_error' ? null : task.task_completed],
    ...ROW_METRICS.map((metric): Property => [`metric.${metric.name}`, metric.valueOf(row)]),
    ['metric.tool_calls', pair(task.tool_calls)],
    ['metric.delegations', pair(task.delegations)],
    ['metric.turns', pair(task.turns)],
    ['failed_checks', failed.join(',')],
  ]
}

function runProperties(document: ResultsDocument): Property[] {
  const block = document.run.configuration[EXTENSION_KEY]
  const entries: Property[] = [
    ['run.id', document.run.id],
    ['run.module', document.run.module],
    ['run.execution_mode', document.run.execution_mode],
  ]
  if (block?.trials !== undefined) {
    entries.push(['trials.k', block.trials.k], ['trials.pass_1', block.trials.pass_1])
    entries.push([`trials.pass_${block.trials.k}`, block.trials.pass_k])
  }
  if (block?.condition_robustness !== undefined) {
    const robustness = block.condition_robustness
    entries.push(['condition_robustness.robust', robustnessRatioText(robustness)])
    // Sources a row of which did not run are neither robust nor not: said apart, only when there are some.
    const unknown = robustness.unknown ?? 0
    if (unknown > 0) entries.push(['condition_robustness.unknown', unknown])
  }
  return entries
}

function testcase(document: ResultsDocument, row: ResultItem): string {
  const { trial } = rowKeyOf(row)
  const architecture = String(document.run.configuration.assistant_mode ?? 'unknown')
  const title = row.title ?? row.scenario_id
  const name =
    document.run.configuration[EXTENSION_KEY]?.trials === undefined ? title : `${title} [trial ${trial}]`
  const open = `    <testcase classname="${xmlText(`${document.run.module}.${architecture}.${row.scenario_id}`)}" name="${xmlText(name)}">`
  const body = [properties(scenarioProperties(row), '      ')]
  if (row.status === 'failed') {
    const message = row.assessment?.rationale || 'the scenario failed'
    body.push(`      <failure message="${xmlText(message)}" type="scenario_failed"/>`)
  } else if (row.status === 'infrastructure_error') {
    const stage = row.error?.stage ?? 'unknown'
    body.push(
      `      <error message="${xmlText(`${stage}: ${row.error?.message ?? ''}`)}" type="infrastructure_error"/>`,
    )
  }
  return `${open}\n${body.join('\n')}\n    </testcase>`
}

export function junitXmlOf(document: ResultsDocument): string {
  const { total, failed, infrastructure_errors: errors } = document.summary
  const architecture = String(document.run.configuration.assistant_mode ?? 'unknown')
  const counts = `tests="${total}" failures="${failed}" errors="${errors}" skipped="0"`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="live-evals" ${counts}>`,
    `  <testsuite name="${xmlText(`${document.run.module}/${architecture} ${document.run.id}`)}" ${counts}>`,
    properties(runProperties(document), '    '),
    ...document.results.map((row) => testcase(document, row)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
