// The replay server: one loopback port (127.0.0.1, port 0) that plays one cassette's service side. WebSocket
// sessions at /replay/<session label>/v1/live/sessions (the openai LiveWS client dials them as it dials the
// service), HTTP at /http/<original path> (the openai clients' requests, redirected by cassetteFetch). What it
// received is played when the schedule (replay-schedule.ts) reaches it, on the replay's virtual media clock: the
// scope's `clock` is the harness side of that (src/phases/engine/media-clock.ts). Strict replay stops at the first
// divergence: every session is closed (1011) and every request refused, so the execution ends at once instead of
// waiting for timeouts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'
import type { LiveEndpointSettingsInput } from '../live/index.ts'
import { DivergenceLog } from './divergences.ts'
import type { LoadedCassette } from './files.ts'
import { type HttpAnswer, HttpReplay } from './http-replay.ts'
import { type CassetteRedaction, redactJson, redactString } from './redaction.ts'
import { REQUEST_ID_HEADER, ReplayClock } from './replay-clock.ts'
import { type ScheduleClock, scheduleOfCassette } from './replay-schedule.ts'
import type { HttpBody, HttpExchange } from './schema.ts'
import type { CassetteScope } from './scope.ts'
import { SessionReplay } from './session-replay.ts'

/** A bound on one client frame or request body (a cassette's own frames are bounded by the cassette cap). */
const MAX_CLIENT_BYTES = 16 * 1024 * 1024

export interface ReplayServer {
  readonly baseURL: string
  readonly divergences: DivergenceLog
  /** The cassette scope a replayed execution runs in: sessions and requests go to this server. */
  scope(): CassetteScope
  /** Labels of recorded sessions no client opened. */
  unopenedSessions(): string[]
  close(): Promise<void>
}

export interface ReplayServerOptions {
  match: 'strict' | 'lenient'
  redaction: CassetteRedaction
  /**
   * Sees each recorded frame before it is played to a session (with the session's label and the time it was
   * recorded at) and may drop it (null): a replayed caller falls silent once the conversation left the recording.
   */
  transform?: (label: string, event: Record<string, unknown>, atMs: number) => Record<string, unknown> | null
  /**
   * How the client's media clock runs (replay-schedule.ts): `virtual` (a replay: the scope's clock synchronises with
   * this server frame by frame), or `real_time` (a replayed caller beside a live assistant: each recorded frame is
   * played as soon as what its session sent before it was heard). Default virtual.
   */
  clock?: ScheduleClock
}

export async function startReplayServer(
  loaded: LoadedCassette,
  options: ReplayServerOptions,
): Promise<ReplayServer> {
  const redact = <T>(value: T): T => redactJson(value, options.redaction)
  const strict = options.match === 'strict'
  const divergences = new DivergenceLog()
  const turn = { value: 0, heardCaller: false }
  const http = new HttpReplay(loaded.cassette.http, loaded.files, divergences)
  const sockets = new Set<WebSocket>()
  const replays = new Map<string, SessionReplay>()
  // The recorded receive time of each frame played, per session, in play order (undefined for a round trip's
  // answer, which no recording has): the client's session takes them in the same order (one socket keeps it) as
  // its receive clock (session-taps.ts).
  const stamps = new Map<string, (number | undefined)[]>()
  const stampsOf = (label: string) => {
    let queue = stamps.get(label)
    if (queue === undefined) {
      queue = []
      stamps.set(label, queue)
    }
    return queue
  }
  // HTTP requests waiting for their recorded answer.
  const waitingAnswers = new Map<HttpExchange, (answer: HttpAnswer) => void>()
  const opened = new Set<string>()
  let stopped = false

  const schedule = scheduleOfCassette(
    loaded.cassette,
    {
      deliver(item, what) {
        if (what.type === 'frame') replays.get(item.channel)?.play(what.frame)
        else waitingAnswers.get(what.exchange)?.(http.answerOf(what.exchange))
      },
      missing(channel, sends) {
        const first = sends[0]
        if (first === undefined) return
        divergences.add(
          channel,
          turn.value,
          first.message,
          null,
          `was not sent before the next audio frame, as the recording sent it${sends.length > 1 ? ` (and ${sends.length - 1} more)` : ''}`,
        )
      },
    },
    options.clock,
  )

  divergences.onFirst = () => {
    if (!strict) return
    stopped = true
    schedule.stop()
    for (const socket of sockets) socket.close(1011, 'replay diverged from the cassette')
    for (const reply of waitingAnswers.values()) reply(STOPPED)
  }

  const redactBody = (body: HttpBody): HttpBody => ({
    ...body,
    ...(body.json === undefined ? {} : { json: redact(body.json) }),
    ...(body.text === undefined ? {} : { text: redactString(body.text, options.redaction) }),
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_BYTES })
  const server = createServer((request, response) => {
    void answerHttp(request, response)
  })

  async function answerHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (!url.pathname.startsWith('/http/')) return end(response, 404, 'text/plain', 'not a replay path')
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of request) {
      size += (chunk as Buffer).byteLength
      if (size > MAX_CLIENT_BYTES) return end(response, 413, 'text/plain', 'request body too large')
      chunks.push(chunk as Buffer)
    }
    const header = request.headers[REQUEST_ID_HEADER]
    const requestId = typeof header === 'string' ? header : null
    const reply = (answer: HttpAnswer | typeof CONNECTION_FAILED) => {
      // A client that gave up is not answered (and its answer is not waited for).
      if (response.destroyed || response.writableEnded) return
      clock.answerSent(requestId)
      // The client's fetch fails as the recording's did; the scope's fetch marks the failure taken.
      if (answer === CONNECTION_FAILED) response.destroy()
      else end(response, answer.status, answer.contentType, answer.body)
    }
    if (stopped) return reply(STOPPED)
    const path = redactString(`${url.pathname.slice('/http'.length)}${url.search}`, options.redaction)
    const matched = http.match(
      (request.method ?? 'GET').toUpperCase(),
      path,
      redactBody(bodyOf(Buffer.concat(chunks), request.headers['content-type'] ?? null)),
      turn.value,
      strict,
    )
    if (matched.type === 'refused') return reply(matched.answer)
    // Answered when the schedule reaches the recorded answer (at once, unless the recording went on meanwhile). One
    // the recording never got (its client gave up) gets no answer: a client that gives up too is let go, one that
    // still waits at that place is told there that the recording gave up (GIVEN_UP), as a request that timed out.
    // One whose connection failed in the recording fails there the same way (the client retries it, as it did).
    const exchange = matched.exchange
    waitingAnswers.set(exchange, (answer) => {
      waitingAnswers.delete(exchange)
      if (exchange.aborted !== true || answer === STOPPED) reply(answer)
      else reply(exchange.connection_failed === true ? CONNECTION_FAILED : GIVEN_UP)
    })
    schedule.heard(exchange.seq)
  }

  server.on('upgrade', (request, socket, head) => {
    const match = /^\/replay\/([a-z0-9_-]+)\/v1\/live\/sessions/.exec(request.url ?? '')
    const record = loaded.cassette.sessions.find((session) => session.label === match?.[1])
    if (record === undefined || opened.has(record.label) || stopped) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
      return
    }
    opened.add(record.label)
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('close', () => sockets.delete(ws))
      const replay = new SessionReplay({
        record,
        files: loaded.files,
        divergences,
        turn,
        redact,
        send: (event, atMs) => {
          if (ws.readyState !== ws.OPEN) return
          const played =
            // A round trip's answer is no recorded frame: it is never transformed.
            options.transform === undefined || atMs === undefined
              ? event
              : options.transform(record.label, event, atMs)
          if (played === null) return
          stampsOf(record.label).push(atMs)
          ws.send(JSON.stringify(played))
        },
      })
      replays.set(record.label, replay)
      ws.on('close', () => replays.delete(record.label))
      ws.on('message', (data, isBinary) => {
        if (stopped) return
        let event: unknown
        try {
          event = isBinary ? null : JSON.parse(String(data))
        } catch {
          event = null
        }
        if (typeof event !== 'object' || event === null || Array.isArray(event)) {
          divergences.add(record.label, turn.value, 'a frame', null, 'is not a JSON event')
          return
        }
        const received = replay.receive(event as Record<string, unknown>)
        if (received.type === 'round_trip') {
          const marker = event as Record<string, unknown>
          schedule.roundTrip(record.label, () => replay.answerRoundTrip(marker))
        } else if (received.type === 'heard') {
          for (const seq of received.seqs) schedule.heard(seq)
        }
        if (replay.closed) ws.close(1000)
      })
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const baseURL = `http://127.0.0.1:${port}`
  const labelsUsed = new Map<string, number>()
  const recordedLabel = new Map<string, string>()
  const recordedLabelOf = (label: string) => recordedLabel.get(label) ?? label
  const clock = new ReplayClock(schedule, recordedLabelOf)

  return {
    baseURL,
    divergences,
    scope: () => ({
      tap: {
        endpoint(settings: LiveEndpointSettingsInput, label: string): LiveEndpointSettingsInput {
          // The k-th session with a label is the recorder's `<label>` (first) or `<label>-<k>`.
          const count = (labelsUsed.get(label) ?? 0) + 1
          labelsUsed.set(label, count)
          const recorded = count === 1 ? label : `${label}-${count}`
          recordedLabel.set(label, recorded)
          return { ...settings, baseURL: `${baseURL}/replay/${recorded}/v1`, allowInsecureLoopback: true }
        },
        receiveClock(label: string) {
          const queue = stampsOf(recordedLabelOf(label))
          return () => queue.shift()
        },
        opened(session, label) {
          const recorded = recordedLabelOf(label)
          session.onSent(({ event }) => {
            if (event.type === 'session.input_audio.append') clock.frameSent(recorded)
          })
        },
      },
      async fetch(input, init) {
        const original = new URL(input instanceof Request ? input.url : String(input))
        const target = `${baseURL}/http${original.pathname}${original.search}`
        const id = clock.requestId()
        const headers = new Headers(input instanceof Request ? input.headers : init?.headers)
        headers.set(REQUEST_ID_HEADER, id)
        let response: Response
        let bytes: ArrayBuffer
        try {
          response = await fetch(
            input instanceof Request ? new Request(new Request(target, input), { headers }) : target,
            { ...init, headers },
          )
          // Taken whole here, so the clock's barrier knows the answer reached the client that asked.
          bytes = await response.arrayBuffer()
        } finally {
          clock.answerTaken(id)
        }
        return new Response(NULL_BODY_STATUSES.has(response.status) ? null : bytes, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        })
      },
      clock,
    }),
    unopenedSessions: () =>
      loaded.cassette.sessions.map((session) => session.label).filter((label) => !opened.has(label)),
    async close() {
      schedule.stop()
      for (const socket of sockets) socket.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

/**
 * The answer at the place where the recording's client gave up on a request (a timeout, in practice: a request the
 * call's end cut short is given up now too, before this). 408 is no status a client retries, as a timeout is not:
 * the harness fails that request where the recording's did (a connection dropped instead would be retried).
 */
const GIVEN_UP: HttpAnswer = {
  status: 408,
  contentType: 'application/json',
  body: JSON.stringify({
    error: {
      message:
        'live-evals replay: the recording gave up on this request here (it timed out); there is no answer',
      type: 'replay_request_given_up',
    },
  }),
}

/** Where the recording's connection failed before an answer: the connection is dropped, no answer is sent. */
const CONNECTION_FAILED = Symbol('connection failed')

const STOPPED: HttpAnswer = {
  status: 500,
  contentType: 'application/json',
  body: JSON.stringify({ error: { message: 'live-evals replay stopped at its first divergence' } }),
}

function bodyOf(bytes: Buffer, contentType: string | null): HttpBody {
  const body: HttpBody = { content_type: contentType }
  if (bytes.byteLength === 0) return body
  const text = bytes.toString('utf8')
  if (/json/i.test(contentType ?? 'json')) {
    try {
      return { ...body, json: JSON.parse(text) }
    } catch {}
  }
  return { ...body, text }
}

function end(
  response: ServerResponse,
  status: number,
  contentType: string | null,
  body: Uint8Array | string | null,
): void {
  response.writeHead(status, contentType === null ? {} : { 'content-type': contentType })
  response.end(body ?? undefined)
}
