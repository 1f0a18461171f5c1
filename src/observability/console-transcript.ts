// `execution.verbose`: a readable account of one conversation for the console, the way a person would follow
// the call: who said what and when, each delegation and when its result was published, and every tool call
// with its arguments and outcome. Vitest prints it under the scenario's test, so it leaves the worker as it is:
// scrubbed of credentials here (a tool's output can quote a backend error that echoed the key).
import { redactText } from '../config/outbound-redaction.ts'
import type { ToolExecution } from './observation.ts'
import type { SessionTimeline } from './timeline.ts'

function clock(ms: number): string {
  const total = Math.max(0, Math.round(ms))
  const seconds = Math.floor(total / 1000)
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.${String(total % 1000).padStart(3, '0')}`
}

const json = (value: unknown) => JSON.stringify(value)

export function consoleTranscript(
  heading: string,
  timeline: SessionTimeline,
  executions: readonly ToolExecution[],
  termination: string | null,
): string {
  const entries: { atMs: number; text: string }[] = []
  for (const line of timeline.lines()) {
    entries.push({
      atMs: line.startMs,
      text: `${line.role === 'user' ? 'CALLER   ' : 'ASSISTANT'} ${line.text}`,
    })
  }
  for (const span of timeline.delegations) {
    entries.push({ atMs: span.startMs, text: `delegation ${span.id} opened` })
    if (span.settledMs !== null) entries.push({ atMs: span.settledMs, text: `delegation ${span.id} settled` })
  }
  entries.sort((a, b) => a.atMs - b.atMs)
  const text = [
    `── ${heading}`,
    ...entries.map((entry) => `  [${clock(entry.atMs)}] ${entry.text}`),
    ...executions.map(
      (execution) =>
        `  tool ${execution.name} ${json(execution.arguments)} → ${execution.status} ${json(execution.output)}`,
    ),
    `  ended: ${termination ?? 'unknown'}`,
  ].join('\n')
  return redactText(text)
}
