// The reference client-delegation service: an HTTP server on a loopback address with two routes.
// `GET /health` is public and stateless; sockets that never upgrade are bounded (pending-connections.ts).
// `GET /ws/assistant` upgrades to the session protocol after the checks
// of the contract, in order: authentication (401), Origin (403), connection limit (503). Nothing is built for
// a refused request; a session's application is built only when it configures. The connection counter is
// checked and moved in one synchronous step, so parallel upgrades cannot slip past it, and it is released only
// when the session has finished its cleanup.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import type { ServiceApplication } from './application.ts'
import { CONNECTION_LIMIT_REACHED, checkUpgradeCredentials, type UpgradeRefusal } from './handshake.ts'
import { HEARTBEAT_INTERVAL_MS, startHeartbeat } from './heartbeat.ts'
import { resolveServiceLimits, type ServiceLimits } from './limits.ts'
import { parseAllowedOrigins } from './origins.ts'
import { guardPendingConnections, type PendingConnectionStats } from './pending-connections.ts'
import { ServiceSession } from './session.ts'
import { checkAssistantToken } from './token.ts'

export const ASSISTANT_PATH = '/ws/assistant'
export const HEALTH_PATH = '/health'
export const HEALTH_BODY = { status: 'ok', assistant: 'client' } as const

/** The only addresses the reference service binds: a developer may leave it running. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'] as const
export const LOOPBACK_ONLY_MESSAGE = 'The reference assistant must bind to a loopback address'

export class ClientAssistantServiceError extends Error {
  override name = 'ClientAssistantServiceError'
}

export interface ClientAssistantServiceOptions {
  /** The shared secret (OPENAI_CLIENT_ASSISTANT_TOKEN); checked against the token rules before listening. */
  token: string | undefined
  /** Where the OpenAI keys are read for the token-reuse check; default process.env. */
  env?: Readonly<Record<string, string | undefined>>
  application: ServiceApplication
  /** One of LOOPBACK_HOSTS; default 127.0.0.1. */
  host?: string
  /** Default 0 (any free port); the command's default is 8795. */
  port?: number
  /** Exact browser origins let in; requests without Origin are always allowed. */
  allowedOrigins?: readonly string[]
  /** Any subset of the §6 limits; validated with the defaults filled in. */
  limits?: Partial<ServiceLimits>
  /** Accept `application_state` in `session.configure`. */
  acceptScenarioState?: boolean
  /** Failure lines (error classes only); default: nowhere. */
  log?: (line: string) => void
  heartbeatIntervalMs?: number
}

export interface ClientAssistantService {
  /** ws://HOST:PORT/ws/assistant */
  url: string
  /** http://HOST:PORT/health */
  healthURL: string
  port: number
  limits: ServiceLimits
  /** Connections counted against max_connections right now. */
  readonly activeConnections: number
  /** Sockets that are not (yet) a session, and how many were closed for the deadline or the cap. */
  pendingConnections(): PendingConnectionStats
  /** Ends every session (cancelling running work), then stops listening. Idempotent. */
  close(): Promise<void>
}

export function assertLoopbackHost(host: string): void {
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(host)) {
    throw new ClientAssistantServiceError(LOOPBACK_ONLY_MESSAGE)
  }
}

export async function startClientAssistantService(
  options: ClientAssistantServiceOptions,
): Promise<ClientAssistantService> {
  const token = checkAssistantToken(options.token, options.env ?? process.env)
  const host = options.host ?? '127.0.0.1'
  assertLoopbackHost(host)
  const limits = resolveServiceLimits(options.limits ?? {})
  const allowedOrigins = parseAllowedOrigins(options.allowedOrigins ?? [])
  const log = options.log ?? (() => {})
  const sessions = new Set<ServiceSession>()
  let active = 0

  const http = createServer(answerHttp)
  // Before anything else sees a socket: silent and refused sockets are bounded in number and lifetime.
  const pending = guardPendingConnections(http, {
    upgradeTimeoutMs: limits.upgrade_timeout * 1000,
    maxPending: limits.max_unauthenticated_connections,
  })
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.max_message_bytes,
    perMessageDeflate: false,
  })

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    if (pathOf(request) !== ASSISTANT_PATH) return refuse(socket, 404, 'No WebSocket route here')
    const refusal = checkUpgradeCredentials(request, { token, allowedOrigins })
    if (refusal !== null) return refuse(socket, refusal.status, refusal.message)
    // Check and increment with no await between them: this is the whole admission decision.
    if (active >= limits.max_connections) return refuse(socket, 503, CONNECTION_LIMIT_REACHED.message)
    active += 1
    pending.adopt(socket)
    let released = false
    const release = () => {
      if (released) return
      released = true
      active -= 1
    }
    let adopted = false
    // ws answers a malformed handshake itself without calling back; the slot must not leak then.
    socket.once('close', () => {
      if (!adopted) release()
    })
    wss.handleUpgrade(request, socket, head, (ws) => {
      adopted = true
      startHeartbeat(ws, options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS)
      const session = new ServiceSession({
        socket: ws,
        limits,
        application: options.application,
        acceptScenarioState: options.acceptScenarioState ?? false,
        log,
      })
      sessions.add(session)
      void session.finished.then(() => {
        sessions.delete(session)
        release()
      })
    })
  })

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject)
      resolve()
    })
  })
  const { port } = http.address() as AddressInfo
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`

  let closing: Promise<void> | null = null
  return {
    url: `ws://${authority}${ASSISTANT_PATH}`,
    healthURL: `http://${authority}${HEALTH_PATH}`,
    port,
    limits,
    get activeConnections() {
      return active
    },
    pendingConnections: () => pending.stats(),
    close() {
      closing ??= (async () => {
        http.close()
        await Promise.all([...sessions].map((session) => session.shutDown()))
        wss.close()
        http.closeAllConnections()
      })()
      return closing
    },
  }
}

/** Plain HTTP: the health route, a hint for the WebSocket route, 404 for the rest. */
function answerHttp(request: IncomingMessage, response: ServerResponse): void {
  const path = pathOf(request)
  if (path === HEALTH_PATH && request.method === 'GET') json(response, 200, HEALTH_BODY)
  else if (path === HEALTH_PATH) json(response, 405, { error: 'Use GET /health' })
  else if (path === ASSISTANT_PATH) json(response, 426, { error: 'Connect with a WebSocket upgrade' })
  else json(response, 404, { error: 'Not found' })
}

function json(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  response.end(JSON.stringify(body))
}

function pathOf(request: IncomingMessage): string {
  try {
    return new URL(request.url ?? '/', 'http://loopback').pathname
  } catch {
    return ''
  }
}

const STATUS_TEXT: Record<UpgradeRefusal['status'] | 404, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
}

/** Answers the upgrade with a plain HTTP error; the socket never becomes a WebSocket. */
function refuse(socket: Duplex, status: keyof typeof STATUS_TEXT, message: string): void {
  const body = JSON.stringify({ error: message })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
