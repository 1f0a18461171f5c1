// Errors the offline server answers with, in the service's `error` event shape. The codes marked "from
// sources" are the ones the protocol research saw on the wire; the others are ours, named plainly, for
// situations the service certainly rejects but whose code no source records.

import { LIMIT_ERROR_CODES } from './limits.ts'

/** Machine-readable codes this server may put in `error.code`. */
export const ERROR_CODES = {
  // from sources
  unknownParameter: 'unknown_parameter',
  missingRequiredParameter: 'missing_required_parameter',
  invalidValue: 'invalid_value',
  invalidEvent: 'invalid_event',
  invalidAudio: 'invalid_audio',
  immutableFieldUpdate: 'immutable_field_update',
  // OpenAI's answer to a model id it does not serve (its other APIs, and the Realtime API, send it this way)
  modelNotFound: 'model_not_found',
  // ours
  sessionNotStarted: 'session_not_started',
  sessionAlreadyStarted: 'session_already_started',
  sessionClosing: 'session_closing',
  notResponsesDelegation: 'not_responses_delegation',
  unsupportedOffline: 'unsupported_in_offline_server',
  // ours, for the limits in limits.ts
  ...LIMIT_ERROR_CODES,
} as const

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES]

/** A rejected client command: becomes one `error` event (the session keeps running unless it never started). */
export interface ProtocolError {
  code: ErrorCode | string
  message: string
  /** JSON path of the offending field, e.g. `session.delegation.type`; omitted when there is none. */
  param?: string
  /** `invalid_request_error` for bad commands, unless an injected fault says otherwise. */
  type?: string
}

export function protocolError(code: ErrorCode, message: string, param?: string): ProtocolError {
  return param === undefined ? { code, message } : { code, message, param }
}

/** Peer text quoted in a message: at most this many characters, so a huge value is never echoed whole. */
export const MAX_QUOTED_CHARS = 64

/** `text` cut to MAX_QUOTED_CHARS, with an ellipsis and the full length when it was longer. */
export function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text
  return `${text.slice(0, MAX_QUOTED_CHARS)}… (${text.length} characters)`
}
