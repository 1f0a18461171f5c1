// Opening a session with a client-assistant service (contract §2): dial with `Authorization: Bearer`, no
// redirect ever followed (the token must not reach a second host), certificate checks on, a connect deadline
// and the inbound frame limit on the socket; then `session.configure` and the service's `session.ready` within
// the ready deadline. A 503 is the service's connection limit: retried a bounded number of times, then reported
// naming the limit. Whatever fails from dialing on, the socket is gone before the error is thrown, and the
// error says only which kind of failure it was (never the URL, the token or what the peer sent).
import { setTimeout as sleep } from 'node:timers/promises'
import { type RawData, WebSocket } from 'ws'
import {
  frameObject,
  frameText,
  type SessionConfigure,
  type SessionReady,
  sessionReadySchema,
} from '../../client/service/protocol/index.ts'
import {
  ClientAssistantClosedError,
  ClientAssistantConnectionLimitError,
  ClientAssistantError,
  ClientAssistantHandshakeError,
  ClientAssistantReadyTimeoutError,
  ClientAssistantRedirectError,
  CONNECTOR_MESSAGES,
  className,
} from './errors.ts'

/** Contract §6, connector side. */
export const CONNECT_TIMEOUT_MS = 15_000
export const READY_TIMEOUT_MS = 15_000
export const MAX_INBOUND_FRAME_BYTES = 256 * 1024
/** 503 answers tolerated before giving up, and the pause before each retry (doubling). */
export const CONNECTION_LIMIT_ATTEMPTS = 4
export const CONNECTION_LIMIT_FIRST_PAUSE_MS = 250

export interface ConnectOptions {
  /** An endpoint already checked by dialableEndpoint. */
  url: URL
  /** A token already checked by checkAssistantToken. */
  token: string
  configure: SessionConfigure
  /** Aborting (the connector's close) ends the attempt and releases the socket. */
  signal: AbortSignal
  connectTimeoutMs?: number
  readyTimeoutMs?: number
  maxInboundFrameBytes?: number
  connectionLimitAttempts?: number
  connectionLimitFirstPauseMs?: number
}

export interface ServiceConnection {
  socket: WebSocket
  ready: SessionReady
}

/** Dials, configures and waits for ready; throws a ClientAssistantError whose message names no detail. */
export async function connectToService(options: ConnectOptions): Promise<ServiceConnection> {
  const attempts = options.connectionLimitAttempts ?? CONNECTION_LIMIT_ATTEMPTS
  let pauseMs = options.connectionLimitFirstPauseMs ?? CONNECTION_LIMIT_FIRST_PAUSE_MS
  for (let attempt = 1; ; attempt++) {
    try {
      const socket = await dial(options)
      return { socket, ready: await configureSession(socket, options) }
    } catch (error) {
      if (error instanceof ClientAssistantError) throw error
      const limited = error instanceof ClientAssistantConnectionLimitError
      if (limited && attempt < attempts && !options.signal.aborted) {
        await sleep(pauseMs, undefined, { signal: options.signal }).catch(() => {})
        pauseMs *= 2
        continue
      }
      const message = CONNECTOR_MESSAGES.connectionFailed(className(error))
      throw new ClientAssistantError(
        limited
          ? `${message}: the service's connection limit (max_connections) answered 503 to ${attempt} attempts; ` +
              'run fewer scenarios at once (execution.concurrency) or raise the service limit'
          : message,
        null,
      )
    }
  }
}

/** One upgrade attempt. Resolves with the open socket; rejects with the failure (the socket released). */
function dial(options: ConnectOptions): Promise<WebSocket> {
  options.signal.throwIfAborted()
  return new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.token}` },
      handshakeTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      maxPayload: options.maxInboundFrameBytes ?? MAX_INBOUND_FRAME_BYTES,
      followRedirects: false,
      perMessageDeflate: false,
    })
    let settled = false
    const settle = (error: unknown) => {
      if (settled) return
      settled = true
      options.signal.removeEventListener('abort', onAbort)
      if (error === null) return resolve(socket)
      socket.terminate()
      reject(error)
    }
    const onAbort = () => settle(new ClientAssistantClosedError('closed while connecting'))
    options.signal.addEventListener('abort', onAbort, { once: true })
    // Kept for the socket's whole life: ws throws an 'error' nobody listens to.
    socket.on('error', (error) => settle(error))
    // Any answer but 101. Listening here stops ws from following anything; the response is read no further.
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0
      response.destroy()
      settle(
        status >= 300 && status < 400
          ? new ClientAssistantRedirectError()
          : status === 503
            ? new ClientAssistantConnectionLimitError('503')
            : new ClientAssistantHandshakeError(status),
      )
    })
    socket.once('open', () => settle(null))
  })
}

/** Sends the configure and waits for the first frame, which must be `session.ready`. */
function configureSession(socket: WebSocket, options: ConnectOptions): Promise<SessionReady> {
  return new Promise<SessionReady>((resolve, reject) => {
    const fail = (error: Error) => {
      cleanUp()
      socket.terminate()
      reject(error)
    }
    const onMessage = (data: RawData, isBinary: boolean) => {
      cleanUp()
      const ready = isBinary ? null : readyFrom(data)
      if (ready === null) {
        socket.terminate()
        reject(new ClientAssistantError(CONNECTOR_MESSAGES.rejected, null))
      } else resolve(ready)
    }
    const onClose = () => fail(new ClientAssistantError(CONNECTOR_MESSAGES.rejected, null))
    const onAbort = () => fail(new ClientAssistantClosedError('closed while configuring'))
    const deadline = setTimeout(
      () => fail(new ClientAssistantReadyTimeoutError('no session.ready in time')),
      options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    )
    const cleanUp = () => {
      clearTimeout(deadline)
      socket.off('message', onMessage)
      socket.off('close', onClose)
      options.signal.removeEventListener('abort', onAbort)
    }
    socket.on('message', onMessage)
    socket.on('close', onClose)
    options.signal.addEventListener('abort', onAbort, { once: true })
    socket.send(JSON.stringify(options.configure), (error) => {
      if (error) fail(error)
    })
  })
}

/**
 * The ready reply, or null. Only `type` is required (§2); our service's `application_state` is kept when it is
 * a JSON object, and any other field of another service is ignored rather than refused.
 */
function readyFrom(data: RawData): SessionReady | null {
  const frame = frameObject(frameText(data))
  if (!frame.ok) return null
  const { type, application_state } = frame.message
  if (type !== 'session.ready') return null
  const state = sessionReadySchema.shape.application_state.safeParse(application_state)
  return state.success && state.data !== undefined
    ? { type: 'session.ready', application_state: state.data }
    : { type: 'session.ready' }
}
