// The connector's failures (contract §5). Every one carries the failure stage `client_assistant_connection`
// and, when it reached the evaluator stream as an `error` event, the code it was reported with. Messages are
// ours alone: they name a cause by its class, never by its text, because a peer's frame, a socket error or a
// URL may carry a token or the service's internals. Causes are therefore kept as class names, not as errors.

/** The failure stage every connector error is reported under. */
export const CONNECTOR_STAGE = 'client_assistant_connection'

/** Codes of the `error` events the connector emits into the evaluator stream (the §5 table). */
export type ConnectorFailureCode =
  | 'client_assistant_error'
  | 'client_assistant_protocol_error'
  | 'client_assistant_connection'
  | 'client_assistant_unexpected_eof'
  | 'client_assistant_incomplete'

export const CONNECTOR_MESSAGES = {
  connectionFailed: (cause: string) => `Client assistant connection failed (${cause})`,
  rejected: 'Client assistant endpoint rejected the evaluation session',
  redirect: 'Client assistant redirects are not permitted',
  sendFailed: (cause: string) => `Client assistant send failed (${cause})`,
  backendFailed: 'Client assistant backend work failed',
  sessionFailed: 'Client assistant session failed',
  receiverFailed: (cause: string) => `Client assistant receiver failed (${cause})`,
  unexpectedEof: 'Client assistant WebSocket ended unexpectedly',
  incomplete: 'Client assistant closed with unfinished delegations',
  cancelled: 'Client assistant receiver was cancelled',
  closedWithWork: 'Client assistant closed before delegated work completed',
  controllerClosed: 'Delegation controller is closed',
} as const

/** A failure of the remote client assistant, as waiters and the results see it. */
export class ClientAssistantError extends Error {
  override name = 'ClientAssistantError'
  readonly stage = CONNECTOR_STAGE
  /** The code of the `error` event it was reported with; null when none was emitted (close, cancel, handshake). */
  readonly code: ConnectorFailureCode | null

  constructor(message: string, code: ConnectorFailureCode | null) {
    super(message)
    this.code = code
  }
}

/** A rule of the contract the service broke; its message is ours and stays inside the connector. */
export class ClientAssistantProtocolError extends Error {
  override name = 'ClientAssistantProtocolError'
}

/** The endpoint answered the upgrade with a redirect; the target was not contacted. */
export class ClientAssistantRedirectError extends Error {
  override name = 'ClientAssistantRedirectError'
  constructor() {
    super(CONNECTOR_MESSAGES.redirect)
  }
}

/** The service answered 503 (its max_connections) on every attempt. */
export class ClientAssistantConnectionLimitError extends Error {
  override name = 'ClientAssistantConnectionLimitError'
}

/** The upgrade was refused with another HTTP status (401, 403, 404, …). */
export class ClientAssistantHandshakeError extends Error {
  override name = 'ClientAssistantHandshakeError'
  readonly status: number
  constructor(status: number) {
    super(`the upgrade was answered with HTTP ${status}`)
    this.status = status
  }
}

/** No first message within the ready deadline. */
export class ClientAssistantReadyTimeoutError extends Error {
  override name = 'ClientAssistantReadyTimeoutError'
}

/** The connector was closed while it was still connecting. */
export class ClientAssistantClosedError extends Error {
  override name = 'ClientAssistantClosedError'
}

/** The class of what was thrown, never its message. */
export function className(error: unknown): string {
  if (error instanceof Error) return error.constructor.name === 'Error' ? error.name : error.constructor.name
  return typeof error
}

/** A frame was to be sent on a socket that is no longer open. */
export class ClientAssistantSocketClosedError extends Error {
  override name = 'ClientAssistantSocketClosedError'
}

/** GPT-Live no longer accepted a relayed commentary chunk (the session is closing or over). */
export class LiveRelayError extends Error {
  override name = 'LiveRelayError'
}
