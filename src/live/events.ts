import type {
  ClientEvent,
  ErrorEvent,
  ServerEvent,
  SessionClosedEvent,
  SessionConfig,
  SessionStartedEvent,
} from 'openai/resources/live/live'

// Every wire type here comes from the openai SDK; this module only names the pieces the session needs.
export type { ClientEvent, ErrorEvent, ServerEvent, SessionClosedEvent, SessionConfig, SessionStartedEvent }

export type ServerEventType = ServerEvent['type']
export type ServerEventOf<T extends ServerEventType> = Extract<ServerEvent, { type: T }>
export type ClientEventOf<T extends ClientEvent['type']> = Extract<ClientEvent, { type: T }>

/** Client events a consumer may send through `LiveSession.send`; start, audio and close have dedicated methods. */
export type SendableClientEvent = Exclude<
  ClientEvent,
  { type: 'session.start' } | { type: 'session.input_audio.append' } | { type: 'session.close' }
>

/** A server event as received, stamped with the session clock at the moment it arrived. */
export interface ReceivedLiveEvent {
  /** Position in the session's receive order, from 0. */
  seq: number
  receivedAtMs: number
  event: ServerEvent
  /**
   * Set only on an output audio delta the log kept without its audio (LiveSessionOptions.keepOutputAudio false):
   * the delta's decoded size in bytes; the event's `delta` is then empty.
   */
  outputAudioBytes?: number
}

/**
 * What a log that does not keep output audio keeps of an event: an output audio delta as its decoded size (its
 * PCM went to the listeners as it arrived), any other event whole. A call's audio would otherwise sit on the heap
 * as base64 until the session is gone.
 */
export function withoutOutputAudio(received: ReceivedLiveEvent): ReceivedLiveEvent {
  const { event } = received
  if (event.type !== 'session.output_audio.delta' || event.delta === '') return received
  return {
    ...received,
    event: { ...event, delta: '' },
    outputAudioBytes: Buffer.byteLength(event.delta, 'base64'),
  }
}

type Check = (event: Record<string, unknown>) => string | null

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const str =
  (field: string): Check =>
  (event) =>
    typeof event[field] === 'string' ? null : `${field} must be a string`
const num =
  (field: string): Check =>
  (event) =>
    typeof event[field] === 'number' && Number.isFinite(event[field])
      ? null
      : `${field} must be a finite number`
const obj =
  (field: string, inner: Check[] = []): Check =>
  (event) => {
    const value = event[field]
    if (!isRecord(value)) return `${field} must be an object`
    for (const check of inner) {
      const problem = check(value)
      if (problem !== null) return `${field}.${problem}`
    }
    return null
  }

// Only the fields this harness relies on are checked; everything else is passed through untouched, and event
// types we do not know are tolerated (the protocol promises new ones will appear).
const REQUIRED_FIELDS: Partial<Record<ServerEventType, Check[]>> = {
  'session.started': [obj('session', [str('id')])],
  'session.closed': [str('reason'), obj('usage', [num('seconds')])],
  error: [obj('error', [str('message')])],
  'session.output_audio.delta': [str('delta')],
  'session.input_transcript.delta': [str('delta'), num('start_ms'), num('end_ms')],
  'session.output_transcript.delta': [str('delta'), num('start_ms'), num('end_ms')],
  'session.delegation.created': [num('offset_ms'), obj('delegation', [str('id'), str('target')])],
  'response.event': [obj('event', [str('type')])],
  'session.usage.updated': [obj('usage', [num('seconds')])],
  'session.commentary.appended': [num('start_ms'), num('end_ms')],
  'session.thinking.appended': [num('start_ms'), num('end_ms')],
  'session.instructions.appended': [num('start_ms'), num('end_ms')],
}

/** Returns why a parsed server event does not have the shape we rely on, or null when it does. */
export function describeMalformedServerEvent(event: unknown): string | null {
  if (!isRecord(event)) return 'event is not a JSON object'
  if (typeof event.type !== 'string') return 'event has no string "type"'
  const checks = REQUIRED_FIELDS[event.type as ServerEventType] ?? []
  for (const check of checks) {
    const problem = check(event)
    if (problem !== null) return `${event.type}: ${problem}`
  }
  return null
}
