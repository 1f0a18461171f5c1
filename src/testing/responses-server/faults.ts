// Faults a scripted route can answer with instead of a result, shaped like the API's own failures so the openai
// client raises its ordinary errors: a 429 with the API's retry hint, a 500, a 200 whose body is not JSON, and a
// request that is never answered (the client's timeout or abort ends it). Slowness is a `delayMs` on a normal reply.

import type { ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { openAiError, type RouteReply } from './routes.ts'

export type ScriptedFault =
  | { fault: 'rate_limited'; retryAfterMs?: number }
  | { fault: 'server_error' }
  | { fault: 'malformed_json' }
  /** Holds the request open until the client gives up or the server closes. */
  | { fault: 'hang' }
  /** A 400 invalid_request_error with this message (a request the script cannot take). */
  | { fault: 'invalid_request'; message: string }

export function isScriptedFault(value: object): value is ScriptedFault {
  return 'fault' in value
}

/** The reply for a fault; undefined once a `hang` ended because the client went away. */
export async function faultReply(
  fault: ScriptedFault,
  response: ServerResponse,
): Promise<RouteReply | undefined> {
  switch (fault.fault) {
    case 'rate_limited':
      return {
        ...openAiError(429, 'Rate limit reached for requests (scripted).', {
          type: 'requests',
          code: 'rate_limit_exceeded',
        }),
        headers: { 'retry-after-ms': String(fault.retryAfterMs ?? 0) },
      }
    case 'server_error':
      return openAiError(500, 'The server had an error while processing your request (scripted).', {
        type: 'server_error',
      })
    case 'malformed_json':
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id": "resp_trunc' }
    case 'hang':
      await new Promise<void>((resolve) => response.once('close', () => resolve()))
      return undefined
    case 'invalid_request':
      return openAiError(400, fault.message)
  }
}

/** Waits `delayMs` before a reply; false when the client gave up meanwhile (nothing should be written). */
export async function delayReply(delayMs: number | undefined, response: ServerResponse): Promise<boolean> {
  if (delayMs === undefined || delayMs <= 0) return true
  await sleep(delayMs)
  return !response.destroyed && response.writable
}

/** The reply when a test scripted nothing for a request: a 500 naming the request, so the test fails clearly. */
export function unscriptedReply(route: string, index: number): RouteReply {
  return openAiError(500, `No scripted reply for request #${index} to ${route}.`, { type: 'server_error' })
}
