// The conversation timeline as SVG: caller and assistant lanes with their voiced intervals over a waveform
// outline, a delegation lane, and tool-call markers. In the report every mark seeks the conversation player; the
// same drawing, without links, is the small image written next to a scenario's WAVs for `vitest --ui`.

import { html, type SafeHtml } from './html.ts'
import type { TimelineModel } from './model.ts'

const WIDTH = 1000
/** Left margin for the lane names, so they never sit on the speech. */
const GUTTER = 72
const PLOT = WIDTH - GUTTER
const LANES = { caller: 8, assistant: 46, delegation: 84, tools: 104 } as const
const LANE_HEIGHT = 30
const HEIGHT = 124

export interface TimelineDrawOptions {
  /** The id of the audio element clicks seek; omit for a static image. */
  player?: string
  /** A standalone SVG file needs its namespace. */
  standalone?: boolean
}

function spanOf(timeline: TimelineModel): number {
  const ends = [
    timeline.duration_ms ?? 0,
    ...timeline.caller.map((interval) => interval.endMs),
    ...timeline.assistant.map((interval) => interval.endMs),
    ...timeline.lines.map((line) => line.end_ms ?? line.start_ms ?? 0),
    ...timeline.delegations.map((delegation) => delegation.settled_ms ?? delegation.start_ms),
  ]
  return Math.max(1, ...ends)
}

function outline(envelope: readonly number[], top: number): string {
  if (envelope.length === 0) return ''
  const middle = top + LANE_HEIGHT / 2
  const step = PLOT / envelope.length
  const upper = envelope.map(
    (peak, index) => `${Math.round(GUTTER + index * step)},${(middle - (peak * LANE_HEIGHT) / 2).toFixed(1)}`,
  )
  const lower = envelope
    .map(
      (peak, index) =>
        `${Math.round(GUTTER + index * step)},${(middle + (peak * LANE_HEIGHT) / 2).toFixed(1)}`,
    )
    .reverse()
  return `M${upper.join('L')}L${lower.join('L')}Z`
}

export function timelineSvg(timeline: TimelineModel, options: TimelineDrawOptions = {}): SafeHtml {
  const span = spanOf(timeline)
  const x = (ms: number) => (GUTTER + (Math.max(0, ms) / span) * PLOT).toFixed(1)
  const width = (start: number, end: number) => Math.max(2, ((end - start) / span) * PLOT).toFixed(1)
  const seek = (ms: number) =>
    options.player === undefined
      ? html``
      : html` data-seek-ms="${Math.round(ms)}" data-player="${options.player}" tabindex="0"`
  const lane = (name: 'caller' | 'assistant', colour: string) => {
    const top = LANES[name]
    const envelope = timeline.envelope?.[name] ?? []
    return html`<text x="4" y="${top + 18}" font-size="10" fill="#667085">${name}</text>
<path d="${outline(envelope, top)}" fill="${colour}" opacity="0.25"/>
${timeline[name].map(
  (interval) =>
    html`<rect x="${x(interval.startMs)}" y="${top}" width="${width(interval.startMs, interval.endMs)}" height="${LANE_HEIGHT}" rx="3" fill="${colour}" opacity="0.55"${seek(interval.startMs)}><title>${name} voiced ${Math.round(interval.startMs)}–${Math.round(interval.endMs)} ms</title></rect>`,
)}`
  }
  const namespace = options.standalone ? html` xmlns="http://www.w3.org/2000/svg"` : html``
  return html`<svg class="timeline"${namespace} viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="conversation timeline, ${Math.round(span)} ms">
<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>
<text x="4" y="${LANES.delegation + 10}" font-size="10" fill="#667085">delegation</text>
<text x="4" y="${LANES.tools + 12}" font-size="10" fill="#667085">tools</text>
<text x="${WIDTH - 4}" y="${HEIGHT - 2}" font-size="9" fill="#667085" text-anchor="end">${Math.round(span)} ms</text>
${lane('caller', '#175cd3')}
${lane('assistant', '#6941c6')}
${timeline.delegations.map(
  (delegation) =>
    html`<rect x="${x(delegation.start_ms)}" y="${LANES.delegation}" width="${width(delegation.start_ms, delegation.settled_ms ?? span)}" height="12" fill="#f79009"${seek(delegation.start_ms)}><title>delegation ${delegation.id} ${Math.round(delegation.start_ms)}–${delegation.settled_ms === null ? 'unsettled' : `${Math.round(delegation.settled_ms)} ms`}</title></rect>`,
)}
${timeline.tool_calls
  .filter((call) => call.at_ms !== null)
  .map(
    (call) =>
      html`<circle cx="${x(call.at_ms as number)}" cy="${LANES.tools + 8}" r="5" fill="${call.status === 'completed' ? '#17803d' : '#b42318'}"${seek(call.at_ms as number)}><title>tool ${call.name} ${call.status} at ${Math.round(call.at_ms as number)} ms</title></circle>`,
  )}
</svg>`
}
