import type { ErrorEvent } from 'openai/resources/live/live'

/**
 * Where a session was when something went wrong. `connect`: before the WebSocket opened; `start`: waiting for
 * `session.started`; `stream`: a started session; `close`: after `session.close`, waiting for `session.closed`;
 * `configuration`: the endpoint settings were refused before any connection was attempted.
 */
export type LiveSessionStage = 'configuration' | 'connect' | 'start' | 'stream' | 'close'

/** What kind of problem ended, refused or interrupted the session. `local_shutdown` is ours, never the provider's. */
export type LiveErrorKind =
  | 'insecure_endpoint'
  | 'invalid_settings'
  | 'transport'
  | 'unexpected_eof'
  | 'malformed_event'
  | 'server_error'
  | 'timeout'
  | 'misuse'
  | 'local_shutdown'
  | 'ended'
  /** A consumer's listener threw on a received event: the session ends with it, never the process. */
  | 'listener_error'

export interface LiveSessionErrorDetails {
  stage: LiveSessionStage
  kind: LiveErrorKind
  /** The server's `error` payload when the failure was a fatal server error event. */
  serverError?: ErrorEvent['error'] | undefined
  /** WebSocket close code when the transport closed underneath us. */
  closeCode?: number | undefined
  cause?: unknown
}

/** The one error type this module raises; `stage` and `kind` let callers record an infrastructure failure. */
export class LiveSessionError extends Error {
  readonly stage: LiveSessionStage
  readonly kind: LiveErrorKind
  readonly serverError: ErrorEvent['error'] | undefined
  readonly closeCode: number | undefined

  constructor(message: string, details: LiveSessionErrorDetails) {
    super(`GPT-Live session ${details.stage}: ${message}`, { cause: details.cause })
    this.name = 'LiveSessionError'
    this.stage = details.stage
    this.kind = details.kind
    this.serverError = details.serverError
    this.closeCode = details.closeCode
  }
}
