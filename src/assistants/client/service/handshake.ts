// The checks a WebSocket upgrade to /ws/assistant passes before anything is built for it, in the contract's
// order: authentication (401), then Origin (403). The connection limit (503) is the server's, because its
// counter must move in the same step as its check. Header values are read from rawHeaders so that a repeated
// Authorization or Origin header is seen (Node keeps only the first in `headers`).
import type { IncomingMessage } from 'node:http'
import { constantTimeEqual } from './token.ts'

export interface UpgradeRefusal {
  status: 401 | 403 | 503
  message: string
}

export const AUTHENTICATION_REQUIRED: UpgradeRefusal = {
  status: 401,
  message: 'Client assistant authentication required',
}
export const ORIGIN_NOT_ALLOWED: UpgradeRefusal = {
  status: 403,
  message: 'Client assistant Origin is not allowed',
}
export const CONNECTION_LIMIT_REACHED: UpgradeRefusal = {
  status: 503,
  message: 'Client assistant connection limit reached',
}

export interface UpgradeCredentials {
  token: string
  allowedOrigins: ReadonlySet<string>
}

/** Null when the request may proceed to the connection limit; else why not. */
export function checkUpgradeCredentials(
  request: IncomingMessage,
  credentials: UpgradeCredentials,
): UpgradeRefusal | null {
  const authorization = headerValues(request, 'authorization')
  // Exactly `Bearer <token>`: case-sensitive scheme, one space, nothing else.
  const expected = `Bearer ${credentials.token}`
  if (authorization.length !== 1 || !constantTimeEqual(authorization[0] ?? '', expected)) {
    return AUTHENTICATION_REQUIRED
  }
  const origin = headerValues(request, 'origin')
  if (origin.length === 0) return null
  if (origin.length > 1) return ORIGIN_NOT_ALLOWED
  const value = origin[0] ?? ''
  if (value === 'null' || !credentials.allowedOrigins.has(value)) return ORIGIN_NOT_ALLOWED
  return null
}

function headerValues(request: IncomingMessage, name: string): string[] {
  const values: string[] = []
  const raw = request.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (raw[index]?.toLowerCase() === name) values.push(raw[index + 1] ?? '')
  }
  return values
}
