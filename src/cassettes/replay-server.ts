// The replay server: one loopback port (127.0.0.1, port 0) that plays one cassette's service side. WebSocket
// sessions at /replay/<session label>/v1/live/sessions (the openai LiveWS client dials them as it dials the
// service), HTTP at /http/<original path> (the openai clients' requests, redirected by cassetteFetch). Strict
// replay stops at the first divergence: every session is closed (1011) and every later request refused, so the
// execution ends at once instead of waiting for timeouts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { type WebSocket, WebSocketServer } from 'ws'
import type { LiveEndpointSettingsInput } from '../live/index.ts'
import { DivergenceLog } from './divergences.ts'
import type { LoadedCassette } from './files.ts'
import { HttpReplay } from './http-replay.ts'
import { type CassetteRedaction, redactJson, redactString } from './redaction.ts'
import type { HttpBody } from './schema.ts'
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
  // The recorded receive time of each frame played, per session, in play order: the client's session takes them
  // in the same order (one socket keeps it) as its receive clock (session-taps.ts).
  const stamps = new Map<string, number[]>()
  const stampsOf = (label: string) => {
    let queue = stamps.get(label)
    if (queue === undefined) {
      queue = []
      stamps.set(label, queue)
    }
    return queue
  }
  const opened = new Set<string>()
  let stopped = false
  divergences.onFirst = (divergence) => {
    if (!strict) return
    stopped = true
    for (const socket of sockets) socket.close(1011, 'replay diverged from the cassette')
    void divergence
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
    const path = redactString(`${url.pathname.slice('/http'.length)}${url.search}`, options.redaction)
    const answer = stopped
      ? {
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { message: 'live-evals replay stopped at its first divergence' } }),
          delayMs: 0,
        }
      : http.answer(
          (request.method ?? 'GET').toUpperCase(),
          path,
          redactBody(bodyOf(Buffer.concat(chunks), request.headers['content-type'] ?? null)),
          turn.value,
          strict,
        )
    // The recorded answer took this long; answering as late keeps what depends on it (tool completion times).
    if (answer.delayMs > 0) await sleep(answer.delayMs)
    end(response, answer.status, answer.contentType, answer.body)
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
            options.transform === undefined ? event : options.transform(record.label, event, atMs)
          if (played === null) return
          stampsOf(record.label).push(atMs)
          ws.send(JSON.stringify(played))
        },
      })
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
        replay.receive(event as Record<string, unknown>)
        if (replay.closed) ws.close(1000)
      })
      replay.open()
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
          const queue = stampsOf(recordedLabel.get(label) ?? label)
          return () => queue.shift()
        },
        opened() {},
      },
      fetch(input, init) {
        const original = new URL(input instanceof Request ? input.url : String(input))
        const target = `${baseURL}/http${original.pathname}${original.search}`
        return fetch(input instanceof Request ? new Request(target, input) : target, init)
      },
    }),
    unopenedSessions: () =>
      loaded.cassette.sessions.map((session) => session.label).filter((label) => !opened.has(label)),
    async close() {
      for (const socket of sockets) socket.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
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
