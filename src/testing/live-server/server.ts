// The offline GPT-Live server: an HTTP server on loopback whose only route is the WebSocket upgrade at
// /v1/live/sessions, where openai's LiveWS arrives with `baseURL: http://127.0.0.1:PORT/v1`. The bearer
// token is checked before the upgrade and selects the session script registered by the harness.
//
// Hearing: what a session hears is registered with its script (registerSession), or added while it runs
// with hear(token, utterance), for a driver that learns what the caller says only as the call goes on (a
// simulated caller that is itself a GPT-Live session). A heard utterance is placed on that session's
// received-audio clock: its input captions go out as the clock passes each word (at once for words the
// clock already passed), and the voice model takes its turn RESPONSE_SILENCE_MS after it ends. Utterances
// of one token must come in order without overlapping. If the voice model is speaking when heard caller
// speech starts, it yields: its current output stops there (the audio and output transcript deltas simply
// stop, as on the service, which has no truncation event) and it takes its turn on the new utterance.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import { guardPendingConnections } from '../../assistants/client/service/pending-connections.ts'
import type { SessionDirector } from './director.ts'
import { type OfflineServerLimits, resolveLimits } from './limits.ts'
import {
  type HeardUtterance,
  heardUtteranceSchema,
  type OfflineSessionScript,
  type ResolvedSessionScript,
  redactToken,
  resolveSessionScript,
} from './script.ts'
import { SendQueue } from './send-queue.ts'
import { OfflineLiveSession } from './session.ts'

export const LIVE_SESSIONS_PATH = '/v1/live/sessions'

export interface OfflineLiveServerOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number
  /** Accept any non-empty bearer token; unregistered tokens get a session with no hearing and no behaviour. */
  acceptAnyToken?: boolean
  /** Frame, depth and send-buffer limits (limits.ts); tests lower them, everyone else keeps the defaults. */
  limits?: Partial<OfflineServerLimits>
  /**
   * With acceptAnyToken: decides at session.start how each unregistered session behaves and what it hears
   * (the dress-rehearsal server; director.ts). Registered tokens keep their scripts.
   */
  director?: SessionDirector
  /**
   * Answers plain HTTP requests (anything but the WebSocket upgrade) on the same port, e.g. the OpenAI HTTP
   * endpoints of the dress rehearsal. Default: 426, connect with a WebSocket.
   */
  httpHandler?: (request: IncomingMessage, response: ServerResponse) => void
}

/** Per-connection memory as the server counts it (bytes queued to clients, never the process RSS), and sockets. */
export interface OfflineServerStats {
  openConnections: number
  /** Bytes queued for sending right now, summed over open connections. */
  bufferedBytes: number
  /** The most bytes ever queued for one connection just after a send. */
  peakBufferedBytes: number
  /** Connections dropped because their client did not read (send buffer over the limit). */
  sendBufferClosures: number
  /** The longest time from such a close starting to its socket being destroyed (or closed), in ms; null before one. */
  slowestSendBufferCloseMs: number | null
  /** TCP connections without a completed upgrade right now (silent, plain HTTP, or refused). */
  pendingConnections: number
  /** Of those, closed because limits.upgradeTimeoutMs passed. */
  pendingTimedOut: number
  /** Of those, closed to make room under limits.maxPendingConnections. */
  pendingEvicted: number
}

export interface OfflineLiveServer {
  /** ws://127.0.0.1:PORT/v1/live/sessions */
  url: string
  /** http://127.0.0.1:PORT/v1, the `baseURL` to give the openai client. */
  baseURL: string
  /** Registers what a session authenticated with `token` hears and how its voice model behaves. */
  registerSession(token: string, script: OfflineSessionScript): void
  /**
   * Adds one utterance to what the session registered under `token` hears, on its received-audio clock:
   * captions as the clock passes each word (past ones at once), then the voice model's turn. Before the
   * session connects it joins the registered hearing. Throws for an unregistered token, an invalid
   * utterance, or one that starts before the previous utterance of this token ended.
   */
  hear(token: string, utterance: HeardUtterance): void
  /** The limits this server applies. */
  limits: Readonly<OfflineServerLimits>
  /** Connection and send-buffer counters (for tests and the bench). */
  stats(): OfflineServerStats
  /** Drops every connection and stops listening. Safe to call more than once. */
  close(): Promise<void>
}

/** After a protocol-level socket error (an oversized frame), how long ws may finish its close handshake. */
const ERROR_CLOSE_GRACE_MS = 1_000

const EMPTY_SCRIPT: ResolvedSessionScript = { hearing: [] }

/**
 * The label behind a session's ids (`live_offline_<label>`, `event_<label>_N`). A registered session is named
 * after a digest of its token, so its ids do not depend on the order in which concurrent sessions connect; an
 * unregistered one (acceptAnyToken) takes the next connection number.
 */
function sessionLabel(token: string, connectionNumber: number | null): string {
  if (connectionNumber !== null) return String(connectionNumber)
  return createHash('sha256').update(token).digest('hex').slice(0, 12)
}

export async function startOfflineLiveServer(
  options: OfflineLiveServerOptions = {},
): Promise<OfflineLiveServer> {
  const scripts = new Map<string, ResolvedSessionScript>()
  /** Sessions connected with each registered token (usually one), for hear(). */
  const sessionsByToken = new Map<string, Set<OfflineLiveSession>>()
  const queues = new Map<WebSocket, SendQueue>()
  /** Connections dropped for not reading whose socket is not gone yet (see SendQueue.reapIfOverdue). */
  const overflowing = new Set<SendQueue>()
  const acceptAnyToken = options.acceptAnyToken ?? false
  const limits = resolveLimits(options.limits)
  let ordinal = 0
  let peakBufferedBytes = 0
  let sendBufferClosures = 0
  let slowestSendBufferCloseMs: number | null = null

  const http = createServer((request, response) => {
    if (options.httpHandler !== undefined) return options.httpHandler(request, response)
    response.writeHead(426, { 'content-type': 'application/json', connection: 'close' })
    response.end(
      JSON.stringify(
        apiError(`Connect with a WebSocket upgrade to ${LIVE_SESSIONS_PATH}.`, 'invalid_request_error'),
      ),
    )
  })
  // ws itself refuses frames beyond the transport limit (close 1009) before any of their bytes are kept.
  // Silent sockets and refused upgrades are bounded in number and lifetime (shared with the client service).
  const pending = guardPendingConnections(http, {
    upgradeTimeoutMs: limits.upgradeTimeoutMs,
    maxPending: limits.maxPendingConnections,
  })
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: limits.maxTransportFrameBytes,
  })

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // An upgrade listener runs outside any request handler: whatever it throws would reach the process.
    try {
      upgrade(request, socket, head)
    } catch {
      socket.destroy()
    }
  })

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = requestPath(request.url)
    if (path === null) {
      return refuse(socket, 400, 'Bad Request', 'The request target is not a valid URL path.')
    }
    if (path !== LIVE_SESSIONS_PATH) {
      return refuse(socket, 404, 'Not Found', `No WebSocket route at ${path}; use ${LIVE_SESSIONS_PATH}.`)
    }
    const token = bearerToken(request.headers.authorization)
    if (token === null) {
      return refuse(
        socket,
        401,
        'Unauthorized',
        'Missing bearer token: send "Authorization: Bearer <token>".',
      )
    }
    const script = scripts.get(token) ?? (acceptAnyToken ? EMPTY_SCRIPT : null)
    if (script === null) {
      return refuse(
        socket,
        401,
        'Unauthorized',
        `Unknown session token ${redactToken(token)}: register it with registerSession() before connecting.`,
      )
    }
    pending.adopt(socket)
    wss.handleUpgrade(request, socket, head, (ws) => {
      let overflowAt: number | null = null
      const queue = new SendQueue(
        ws,
        limits,
        () => {
          sendBufferClosures += 1
          overflowAt = performance.now()
          overflowing.add(queue)
        },
        socket,
      )
      queues.set(ws, queue)
      const session = new OfflineLiveSession(
        {
          sendText: (text) => {
            queue.send(text)
            peakBufferedBytes = Math.max(peakBufferedBytes, queue.peakQueuedBytes)
          },
          close: (code, reason) => queue.close(code, reason),
          terminate: () => queue.terminate(),
        },
        script,
        sessionLabel(token, scripts.has(token) ? null : ++ordinal),
        limits,
        scripts.has(token) ? null : (options.director ?? null),
      )
      ws.on('message', (data, isBinary) => {
        for (const dropped of overflowing) dropped.reapIfOverdue()
        // A connection being dropped for not reading gets no more work done for it.
        if (queue.closing) return
        // The session guards its own handlers; this is the last line, so nothing a peer sends reaches the process.
        try {
          if (isBinary) session.handleBinaryFrame()
          else session.handleFrame(data.toString())
        } catch {
          ws.terminate()
        }
      })
      const registered = scripts.has(token) ? token : null
      if (registered !== null) {
        const sessions = sessionsByToken.get(registered) ?? new Set()
        sessions.add(session)
        sessionsByToken.set(registered, sessions)
      }
      ws.on('close', () => {
        if (overflowAt !== null) {
          const gone = queue.destroyedAt ?? performance.now()
          slowestSendBufferCloseMs = Math.max(slowestSendBufferCloseMs ?? 0, gone - overflowAt)
        }
        queues.delete(ws)
        overflowing.delete(queue)
        session.handleTransportClosed()
        if (registered !== null) sessionsByToken.get(registered)?.delete(session)
      })
      // ws has already started the close handshake for protocol errors (1009 for an oversized frame); give
      // it a moment to send the close frame, then drop the socket whatever the peer does.
      ws.on('error', () => setTimeout(() => ws.terminate(), ERROR_CLOSE_GRACE_MS).unref())
    })
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject)
      resolve()
    })
  })
  const { port } = http.address() as AddressInfo

  let closing: Promise<void> | null = null
  return {
    url: `ws://127.0.0.1:${port}${LIVE_SESSIONS_PATH}`,
    baseURL: `http://127.0.0.1:${port}/v1`,
    limits,
    stats() {
      let bufferedBytes = 0
      for (const queue of queues.values()) bufferedBytes += queue.queuedBytes
      const { pending: pendingConnections, timedOut, evicted } = pending.stats()
      return {
        openConnections: queues.size,
        bufferedBytes,
        peakBufferedBytes,
        sendBufferClosures,
        slowestSendBufferCloseMs,
        pendingConnections,
        pendingTimedOut: timedOut,
        pendingEvicted: evicted,
      }
    },
    registerSession(token, script) {
      if (token.length === 0)
        throw new Error('offline GPT-Live server: registerSession needs a non-empty token')
      const resolved = resolveSessionScript(token, script)
      // A copy of its own: hear() adds to it for sessions that have not started yet.
      scripts.set(token, { ...resolved, hearing: [...resolved.hearing] })
    },
    hear(token, utterance) {
      const script = scripts.get(token)
      if (script === undefined) {
        throw new Error(
          `offline GPT-Live server: hear() for unknown session token ${redactToken(token)}: register it with registerSession() first`,
        )
      }
      const parsed = heardUtteranceSchema.safeParse(utterance)
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || '(utterance)'}: ${issue.message}`,
        )
        throw new Error(
          `offline GPT-Live server: hear() for session token ${redactToken(token)} got an invalid utterance: ${problems.join('; ')}`,
        )
      }
      const previous = script.hearing.at(-1)
      if (previous !== undefined && parsed.data.startMs < previous.endMs) {
        throw new Error(
          `offline GPT-Live server: hear() for session token ${redactToken(token)}: the utterance starting at ${parsed.data.startMs} ms overlaps or precedes the previous one (${previous.startMs}–${previous.endMs} ms); utterances must come in order without overlapping`,
        )
      }
      script.hearing.push(parsed.data)
      for (const session of sessionsByToken.get(token) ?? []) session.hear(parsed.data)
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const ws of queues.keys()) ws.terminate()
        wss.close()
        http.closeAllConnections()
        http.close(() => resolve())
      })
      return closing
    },
  }
}

/** The path of a request target, or null when the target is not a URL (a raw client can send anything). */
function requestPath(target: string | undefined): string | null {
  try {
    return new URL(target ?? '/', 'http://127.0.0.1').pathname
  } catch {
    return null
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  return match?.[1] ?? null
}

function apiError(message: string, type: string, code?: string) {
  return { error: { message, type, code: code ?? null, param: null } }
}

/** Answers the upgrade request with a plain HTTP error (the socket never becomes a WebSocket). */
function refuse(socket: Duplex, status: number, statusText: string, message: string): void {
  const code = status === 401 ? 'invalid_api_key' : undefined
  const body = JSON.stringify(apiError(message, 'invalid_request_error', code))
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
