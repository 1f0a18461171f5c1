// What one execution (scenario × architecture × trial) sent and received, kept as it happens: every frame of
// every GPT-Live session opened in the execution's async context (through src/live's session tap) and every HTTP
// exchange of the openai clients (through cassetteFetch). Everything is redacted before it is kept
// (redaction.ts) and audio goes to the PCM store, not the JSON.
import type { ClientEvent, ServerEvent, SessionTap, TappedSession } from '../live/index.ts'
import { PcmStore } from './pcm-store.ts'
import { type CassetteRedaction, redactJson, redactString } from './redaction.ts'
import { RequestEndTurns } from './request-end-turns.ts'
import type { CassetteFrame, HttpBody, HttpExchange, SessionRecord } from './schema.ts'

/** The audio field of each event type that carries audio, removed from the JSON and kept as PCM. */
const AUDIO_FIELDS: Readonly<Record<string, string>> = {
  'session.input_audio.append': 'audio',
  'session.output_audio.delta': 'delta',
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

export interface RecordedExecution {
  sessions: SessionRecord[]
  http: HttpExchange[]
  files: Map<string, Uint8Array>
  overflowed: boolean
}

export class CassetteRecorder implements SessionTap {
  readonly #redaction: CassetteRedaction
  readonly #store: PcmStore
  readonly #sessions: SessionRecord[] = []
  readonly #http: HttpExchange[] = []
  /** The media clock's synchronisation before each real-time frame (request-end-turns.ts). */
  readonly requestEnds = new RequestEndTurns()
  #seq = 0

  constructor(redaction: CassetteRedaction, limitBytes: number) {
    this.#redaction = redaction
    this.#store = new PcmStore(limitBytes)
  }

  opened(session: TappedSession, label: string): void {
    const taken = this.#sessions.filter((record) => record.label.split('-')[0] === label).length
    const record: SessionRecord = { label: taken === 0 ? label : `${label}-${taken + 1}`, frames: [] }
    this.#sessions.push(record)
    session.onSent((sent) => this.#frame(record, 'sent', sent.sentAtMs, sent.event))
    session.subscribe((received) => this.#frame(record, 'received', received.receivedAtMs, received.event))
  }

  /** The openai client's fetch while recording: the real request, its exchange kept. */
  async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const seq = this.#seq++
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    const requestType = headerOf(init?.headers, 'content-type')
    const request = this.#body(requestBytes(init?.body), requestType, null)
    const startedAt = performance.now()
    const path = redactString(`${url.pathname}${url.search}`, this.#redaction)
    const elapsedMs = () => Math.round((performance.now() - startedAt) * 10) / 10
    let response: Response
    let bytes: Uint8Array
    try {
      response = await fetch(input, init)
      bytes = new Uint8Array(await response.arrayBuffer())
    } catch (error) {
      // Ended before an answer came: kept as such, so a replay of the same request knows the recording never had its
      // answer. Given up (the client's signal aborted: the call ended, its timeout passed; or the connection timed
      // out) or a connection that failed (reset, closed by the other side, as happens on an overloaded machine): the
      // harness retries the second and not the first, so replay has to end the request the same way, or the
      // recording's retry never comes in the replay (or one comes that the recording never made).
      const signal = init?.signal ?? (input instanceof Request ? input.signal : null)
      const cause = error instanceof Error ? error.cause : undefined
      const givenUp = signal?.aborted === true || /timed? ?out/i.test(`${String(error)} ${String(cause)}`)
      const exchange = { seq, answered_seq: this.#seq++, method, path, request, status: 0 }
      this.requestEnds.requestEnded()
      this.#http.push({
        ...exchange,
        response: { content_type: null },
        duration_ms: elapsedMs(),
        aborted: true,
        ...(givenUp ? {} : { connection_failed: true as const }),
      })
      throw error
    }
    // The answer is here, body and all: from now on the harness can act on it.
    const answeredSeq = this.#seq++
    this.requestEnds.requestEnded()
    const responseType = response.headers.get('content-type')
    this.#http.push({
      seq,
      answered_seq: answeredSeq,
      method,
      path,
      request,
      status: response.status,
      response: this.#body(bytes, responseType, 'http.pcm'),
      duration_ms: elapsedMs(),
    })
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }

  /** Everything kept so far. */
  finish(): RecordedExecution {
    return {
      sessions: this.#sessions,
      http: this.#http,
      files: this.#store.files(),
      overflowed: this.#store.overflowed,
    }
  }

  #frame(
    record: SessionRecord,
    direction: CassetteFrame['direction'],
    atMs: number,
    event: ClientEvent | ServerEvent,
  ): void {
    const seq = this.#seq++
    if (this.#store.overflowed) return
    // redactJson copies what it is given: the event itself, or for audio a copy without its audio field (built
    // field by field: a spread and a `delete` turned every audio frame's copy into a slow dictionary object).
    let kept = event as unknown as Record<string, unknown>
    const field = AUDIO_FIELDS[event.type]
    const base64 = field === undefined ? undefined : kept[field]
    let audio: CassetteFrame['audio']
    if (typeof base64 === 'string') {
      const withoutAudio: Record<string, unknown> = {}
      for (const key of Object.keys(kept)) if (key !== field) withoutAudio[key] = kept[key]
      kept = withoutAudio
      audio =
        this.#store.append(`${record.label}.${direction}.pcm`, Buffer.from(base64, 'base64')) ?? undefined
      if (audio === undefined) return
    }
    const redacted = redactJson(kept, this.#redaction) as CassetteFrame['event']
    if (!this.#store.charge(JSON.stringify(redacted).length)) return
    record.frames.push({ seq, direction, at_ms: atMs, event: redacted, ...(audio ? { audio } : {}) })
  }

  #body(bytes: Uint8Array | null, contentType: string | null, binaryFile: string | null): HttpBody {
    const body: HttpBody = { content_type: contentType }
    if (bytes === null || bytes.byteLength === 0) return body
    const textual = contentType === null || /json|text|event-stream|x-www-form-urlencoded/i.test(contentType)
    if (!textual && binaryFile !== null) {
      const audio = this.#store.append(binaryFile, bytes)
      return audio === null ? body : { ...body, audio }
    }
    const text = Buffer.from(bytes).toString('utf8')
    if (!this.#store.charge(text.length)) return body
    if (/json/i.test(contentType ?? 'json')) {
      try {
        return { ...body, json: redactJson(JSON.parse(text), this.#redaction) }
      } catch {
        // Not JSON after all: kept as text below.
      }
    }
    return { ...body, text: redactString(text, this.#redaction) }
  }
}

function requestBytes(body: RequestInit['body'] | undefined): Uint8Array | null {
  if (body === undefined || body === null) return null
  if (typeof body === 'string') return Buffer.from(body, 'utf8')
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  // Streams and forms are not something the openai clients send here; say so rather than guess.
  return Buffer.from('[a body live-evals does not record]', 'utf8')
}

function headerOf(headers: RequestInit['headers'] | undefined, name: string): string | null {
  if (headers === undefined) return null
  return new Headers(headers).get(name)
}
