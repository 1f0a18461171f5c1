// Protocol drift: what the service sent that our strict offline server does not model. Every frame a recording
// received is checked against the offline server's server-event model (src/testing/live-server/
// server-events-schema.ts): an event type it never sends, a field it never sends (at its JSON path), or a value of
// another shape than the one it sends. Findings are counted per kind, event type and path, with the first frame
// that showed each, so the offline server can be corrected from real traffic.
//
// A cassette keeps audio out of its frames (the PCM files hold it) and redacts secrets before keeping anything:
// the audio field is put back as an empty string before the check, and a redacted value is never a finding.
import type { z } from 'zod'
import { REDACTED } from '../../config/redact.ts'
import {
  isModelledServerEventType,
  nestedResponseEventSchemas,
  serverEventSchemas,
} from '../../testing/live-server/server-events-schema.ts'
import type { Cassette, CassetteFrame } from '../schema.ts'

/** The audio field of each received event type that carries audio, removed from the recorded JSON. */
const AUDIO_FIELDS: Readonly<Record<string, string>> = {
  'session.output_audio.delta': 'delta',
  'session.input_audio.append': 'audio',
}

export interface ProtocolFinding {
  kind: 'unknown_event_type' | 'unknown_field' | 'different_shape'
  /** The event type; a nested Responses event is `response.event › <its type>`. */
  event_type: string
  /** JSON path inside the event ("session.turn_detection"); '' for an unknown event type. */
  path: string
  detail: string
  /** Frames that showed it. */
  count: number
  /** The first frame that showed it. */
  first: { cassette: string; session: string; seq: number }
}

const MAX_FINDINGS = 200

function withAudioField(frame: CassetteFrame): Record<string, unknown> {
  const field = AUDIO_FIELDS[String(frame.event.type)]
  return field === undefined || frame.audio === undefined ? frame.event : { ...frame.event, [field]: '' }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

const joined = (path: readonly PropertyKey[]) =>
  path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('')

type Found = Omit<ProtocolFinding, 'count' | 'first'>

/** The findings of one received event (none when the offline server models it exactly). */
export function eventFindings(event: Record<string, unknown>): Found[] {
  const type = typeof event.type === 'string' ? event.type : '(no type)'
  if (!isModelledServerEventType(type)) {
    return [
      { kind: 'unknown_event_type', event_type: type, path: '', detail: 'the offline server never sends it' },
    ]
  }
  if (type === 'response.event') {
    const nested = (event.event as { type?: unknown } | undefined)?.type
    if (typeof nested === 'string' && !Object.hasOwn(nestedResponseEventSchemas, nested)) {
      return [
        {
          kind: 'unknown_event_type',
          event_type: `response.event › ${nested}`,
          path: '',
          detail: 'the offline server never nests it in response.event',
        },
      ]
    }
  }
  const schema: z.ZodType = serverEventSchemas[type]
  const parsed = schema.safeParse(event)
  if (parsed.success) return []
  const nestedType =
    type === 'response.event' ? (event.event as { type?: unknown } | undefined)?.type : undefined
  const eventType = typeof nestedType === 'string' ? `response.event › ${nestedType}` : type
  const found: Found[] = []
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        found.push({
          kind: 'unknown_field',
          event_type: eventType,
          path: joined([...issue.path, key]),
          detail: `the offline server never sends this field (seen: ${preview(valueAt(event, [...issue.path, key]))})`,
        })
      }
      continue
    }
    if (valueAt(event, issue.path) === REDACTED) continue
    found.push({
      kind: 'different_shape',
      event_type: eventType,
      path: joined(issue.path),
      detail: `${issue.message} (seen: ${preview(valueAt(event, issue.path))})`,
    })
  }
  return found
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/** Every finding of the received frames of `cassettes`, counted; at most MAX_FINDINGS distinct ones. */
export function protocolDrift(cassettes: readonly Cassette[]): ProtocolFinding[] {
  const findings = new Map<string, ProtocolFinding>()
  for (const cassette of cassettes) {
    for (const session of cassette.sessions) {
      for (const frame of session.frames) {
        if (frame.direction !== 'received') continue
        for (const found of eventFindings(withAudioField(frame))) {
          const key = `${found.kind}\u0000${found.event_type}\u0000${found.path}`
          const known = findings.get(key)
          if (known !== undefined) known.count += 1
          else if (findings.size < MAX_FINDINGS) {
            findings.set(key, {
              ...found,
              count: 1,
              first: { cassette: cassette.header.id, session: session.label, seq: frame.seq },
            })
          }
        }
      }
    }
  }
  return [...findings.values()]
}
