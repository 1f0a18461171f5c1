// The one error type of structured model calls. `kind` says what went wrong so a caller can record the right failure
// (the judge turns every kind into an infrastructure failure at its own stage); the message names the model and the
// request's purpose, because a suite makes many such calls and "request failed" alone says nothing.

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'

export type ModelCallFailureKind =
  /** The answer held no parsable structured value: a refusal, an empty or incomplete response, or a schema miss. */
  | 'no_structured_decision'
  /** 429 after every allowed attempt. */
  | 'rate_limited'
  /** 5xx after every allowed attempt. */
  | 'server_error'
  /** Any other 4xx: the request itself was refused and retrying cannot help. */
  | 'request_refused'
  | 'timeout'
  | 'aborted'
  /** The connection failed before any answer arrived. */
  | 'transport'
  /** A 200 whose body was not JSON. */
  | 'malformed_response'
  /** Anything else the request raised (a bug or an SDK change, not an answer). */
  | 'unexpected'

export interface ModelCallContext {
  model: string
  /** What the request was for, e.g. `evaluation_judge/task_understanding`. */
  purpose: string
}

export class ModelCallError extends Error {
  readonly kind: ModelCallFailureKind
  readonly model: string
  readonly purpose: string
  /** Requests sent before giving up (0 when the call never got as far as a request). */
  readonly attempts: number
  /** HTTP status of the last answer, when there was one. */
  readonly status: number | null

  constructor(
    kind: ModelCallFailureKind,
    detail: string,
    context: ModelCallContext & { attempts: number; status?: number | null; cause?: unknown },
  ) {
    super(`${describeKind(kind)} from ${context.model} for ${context.purpose}: ${detail}`, {
      cause: context.cause,
    })
    this.name = 'ModelCallError'
    this.kind = kind
    this.model = context.model
    this.purpose = context.purpose
    this.attempts = context.attempts
    this.status = context.status ?? null
  }
}

function describeKind(kind: ModelCallFailureKind): string {
  if (kind === 'no_structured_decision') return 'no structured decision'
  return `model call failed (${kind.replaceAll('_', ' ')})`
}

// The SDK raises a SyntaxError with this wording when the structured output text is not JSON; a SyntaxError
// without it comes from an HTTP body that was not JSON at all.
const STRUCTURED_OUTPUT_SYNTAX = 'invalid structured output JSON'

/** Maps whatever a request raised to a ModelCallError of the right kind. */
export function modelCallErrorFrom(
  cause: unknown,
  context: ModelCallContext & { attempts: number },
): ModelCallError {
  if (cause instanceof ModelCallError) return cause
  const message = cause instanceof Error ? cause.message : String(cause)
  const at = { ...context, cause }
  if (cause instanceof APIUserAbortError || (cause instanceof Error && cause.name === 'AbortError')) {
    return new ModelCallError('aborted', 'the caller aborted the request', at)
  }
  if (cause instanceof APIConnectionTimeoutError) {
    return new ModelCallError('timeout', 'no answer before the request timeout', at)
  }
  if (cause instanceof APIConnectionError) return new ModelCallError('transport', message, at)
  if (cause instanceof APIError) {
    const status = cause.status ?? null
    const kind =
      status === 429 ? 'rate_limited' : status !== null && status >= 500 ? 'server_error' : 'request_refused'
    return new ModelCallError(kind, `HTTP ${status}: ${message}`, { ...at, status })
  }
  if (cause instanceof SyntaxError && !message.includes(STRUCTURED_OUTPUT_SYNTAX)) {
    return new ModelCallError('malformed_response', `the answer was not JSON (${message})`, at)
  }
  // Raised while the SDK parsed the structured text: not JSON, or JSON the schema refused.
  if (cause instanceof SyntaxError || (cause instanceof Error && cause.name === 'ZodError')) {
    return new ModelCallError(
      'no_structured_decision',
      `the structured answer did not parse (${message})`,
      at,
    )
  }
  return new ModelCallError('unexpected', message, at)
}
