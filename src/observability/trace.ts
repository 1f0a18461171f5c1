// The sanitized event trace of one scenario (events/<id>.jsonl, reference §4.3): every protocol event we sent
// or received plus the evaluator's own events, numbered from 1 in the order they happened. Raw audio never
// reaches the file (only its byte count does) and credential-like fields and values are redacted, because
// artifacts are shared more widely than the run that produced them.

import { redactSecrets } from '../config/redact.ts'

export type TraceSource = 'client' | 'server' | 'evaluator'
export type TraceDirection = 'sent' | 'received' | 'internal'

export interface TraceRecord {
  event_index: number
  source: TraceSource
  direction: TraceDirection
  type: string
  /** Session-clock time (ms) the event was sent, received or produced; null when it has no place on it. */
  at_ms: number | null
  event: Record<string, unknown>
}

export interface TraceOptions {
  /** Field names to redact besides the built-in secret words (GPT_LIVE_EVALS_REDACT_FIELDS). */
  redactFields?: readonly string[]
  /** Secret values (the API key, the session token) to scrub wherever they were copied. */
  secretValues?: readonly string[]
}

/** Event types whose named field holds base64 audio. Transcript deltas also have `delta`, but theirs is text. */
const AUDIO_FIELDS: Readonly<Record<string, string>> = {
  'session.input_audio.append': 'audio',
  'session.output_audio.delta': 'delta',
}

/**
 * Replaces base64 audio by `<field>_bytes` (its decoded size), so the trace keeps how much was sent. `audioBytes`:
 * the size already known, for an event whose log kept no audio (ReceivedLiveEvent.outputAudioBytes).
 */
export function withoutRawAudio(
  event: Record<string, unknown>,
  audioBytes?: number,
): Record<string, unknown> {
  const type = typeof event.type === 'string' ? event.type : ''
  const field = AUDIO_FIELDS[type]
  if (field === undefined || typeof event[field] !== 'string') return event
  const { [field]: audio, ...rest } = event
  return { ...rest, [`${field}_bytes`]: audioBytes ?? Buffer.byteLength(audio as string, 'base64') }
}

/**
 * The event as JSON data (what a JSON round trip gives). Most events are flat, strings and finite numbers only
 * (every sent audio frame is, once its audio is a byte count), and for those the round trip is the identity, so
 * the event itself is returned: redaction copies it anyway. Anything else (nesting, undefined, -0, a class
 * instance that may have toJSON) takes the round trip.
 */
export function jsonPlain(event: Record<string, unknown>): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(event)
  let flat = prototype === Object.prototype || prototype === null
  if (flat) {
    for (const key in event) {
      if (!Object.hasOwn(event, key)) continue
      const value = event[key]
      if (
        !(
          typeof value === 'string' ||
          typeof value === 'boolean' ||
          value === null ||
          (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))
        )
      ) {
        flat = false
        break
      }
    }
  }
  return flat ? event : (JSON.parse(JSON.stringify(event)) as Record<string, unknown>)
}

export class SessionTrace {
  readonly #records: TraceRecord[] = []
  readonly #options: TraceOptions

  constructor(options: TraceOptions = {}) {
    this.#options = options
  }

  get records(): readonly TraceRecord[] {
    return this.#records
  }

  /** Adds one event; it is sanitized now, so nothing raw is ever held by the trace. */
  add(
    source: TraceSource,
    direction: TraceDirection,
    atMs: number | null,
    event: object,
    audioBytes?: number,
  ): TraceRecord {
    // Audio goes first, before the deep copy: an output delta is mostly base64, and copying it through
    // JSON only to drop it was most of the trace's cost.
    const plain = jsonPlain(withoutRawAudio(event as Record<string, unknown>, audioBytes))
    const sanitized = redactSecrets(plain, {
      extraNames: this.#options.redactFields ?? [],
      secretValues: this.#options.secretValues ?? [],
    }) as Record<string, unknown>
    const record: TraceRecord = {
      event_index: this.#records.length + 1,
      source,
      direction,
      type: typeof plain.type === 'string' ? plain.type : 'unknown',
      at_ms: atMs,
      event: sanitized,
    }
    this.#records.push(record)
    return record
  }

  /** An evaluator event (`evaluation.checks.assessed`, `evaluation.outcome.assessed`, ...). */
  addEvaluation(type: string, atMs: number | null, payload: Record<string, unknown>): TraceRecord {
    return this.add('evaluator', 'internal', atMs, { type, ...payload })
  }

  /** JSON Lines, one record per line, ending with a newline (empty string when nothing was traced). */
  toJsonl(): string {
    return this.#records.map((record) => `${JSON.stringify(record)}\n`).join('')
  }
}
