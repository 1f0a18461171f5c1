// Why a service session stopped. The class decides the code peers receive (the message is always "Session
// stopped"); the message here is for tests and debugging only and never leaves the process: logs carry only
// the class name, because a message may quote peer input or a backend's internals.
import type { SessionErrorCode } from './protocol/index.ts'

export class ServiceSessionError extends Error {
  override name = 'ServiceSessionError'
  readonly code: SessionErrorCode

  constructor(code: SessionErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}

/** Malformed or unsupported input from the connector. */
export class ClientProtocolError extends ServiceSessionError {
  override name = 'ClientProtocolError'
  constructor(message: string, options?: ErrorOptions) {
    super('client_protocol_error', message, options)
  }
}

/** A limit of §6 was exceeded. */
export class ClientLimitError extends ServiceSessionError {
  override name = 'ClientLimitError'
  constructor(message: string) {
    super('client_limit_reached', message)
  }
}

/** The configure or the session deadline passed. */
export class ClientSessionTimeoutError extends ServiceSessionError {
  override name = 'ClientSessionTimeoutError'
  constructor(message: string) {
    super('client_session_timeout', message)
  }
}

/** The peer-facing code for any failure: its own for session errors, client_assistant_error for the rest. */
export function sessionErrorCode(error: unknown): SessionErrorCode {
  return error instanceof ServiceSessionError ? error.code : 'client_assistant_error'
}

/** The class of what was thrown, never its message. */
export function errorClassName(error: unknown): string {
  if (error instanceof Error) return error.constructor.name === 'Error' ? error.name : error.constructor.name
  return typeof error
}
