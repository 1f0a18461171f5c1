// The route contract of the test OpenAI server: what a handler receives, what it may answer, and the
// API-shaped error reply. Kept apart from the server so route modules do not import the server.

import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { z } from 'zod'

export interface RecordedRequest {
  method: string
  /** Path without the query string, e.g. `/v1/audio/speech`. */
  path: string
  query: Record<string, string>
  headers: IncomingHttpHeaders
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  body: unknown
  rawBody: Buffer
}

/** A reply described as data; `body` objects are sent as JSON, bytes and strings as they are. */
export interface RouteReply {
  status?: number
  headers?: Record<string, string>
  body: Uint8Array | string | object
}

/**
 * Handles one request. Return a RouteReply, or write to `response` yourself (for streaming, e.g. server-sent
 * events) and return undefined once the response has been ended.
 */
export type RouteHandler = (
  request: RecordedRequest,
  response: ServerResponse,
) => RouteReply | undefined | Promise<RouteReply | undefined>

/** An error reply in the OpenAI API's shape. */
export function openAiError(
  status: number,
  message: string,
  details: { type?: string; param?: string | null; code?: string | null } = {},
): RouteReply {
  return {
    status,
    body: {
      error: {
        message,
        type: details.type ?? 'invalid_request_error',
        param: details.param ?? null,
        code: details.code ?? null,
      },
    },
  }
}

/** The API's 400 for a request body that failed `what`'s schema: the first problem, naming its parameter. */
export function invalidRequest(what: string, error: z.ZodError): RouteReply {
  const issue = error.issues[0]
  const param = issue?.path.join('.') || null
  const problem =
    issue?.code === 'unrecognized_keys' ? `Unknown parameter: ${issue.keys.join(', ')}` : issue?.message
  return openAiError(400, `Invalid ${what}: ${problem ?? 'body must be a JSON object'}`, { param })
}
