// Bounded retries for model calls: only answers that may succeed later (429 and 5xx, or a connection that failed
// before an answer) are retried, with exponential backoff that honours the server's retry-after hint. The sleep is
// injectable so tests run every retry path without waiting.

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import type { RetryPolicy } from './retry-policy.ts'

/** Worth another attempt: rate limits, server errors and connections that broke (not timeouts, not aborts). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) return false
  if (error instanceof APIConnectionError) return true
  if (!(error instanceof APIError)) return false
  const status = error.status ?? 0
  return status === 429 || status >= 500
}

/** The server's own hint (`retry-after-ms`, then `retry-after` in seconds), or null when it gave none. */
export function retryAfterMs(error: unknown): number | null {
  if (!(error instanceof APIError) || !(error.headers instanceof Headers)) return null
  const milliseconds = Number(error.headers.get('retry-after-ms') ?? Number.NaN)
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds
  const seconds = Number(error.headers.get('retry-after') ?? Number.NaN)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  return null
}

/** Delay before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, hintMs: number | null): number {
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1)
  return Math.min(hintMs ?? exponential, policy.maxDelayMs)
}

export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: unknown; attempts: number }

/**
 * Runs `attempt` until it succeeds, fails with something not worth retrying, or the attempts run out.
 * `onRetry` hears each retryable failure with the delay about to be waited (the rate limiter uses it).
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  options: { signal?: AbortSignal | undefined; onRetry?: (error: unknown, delayMs: number) => void } = {},
): Promise<RetryOutcome<T>> {
  for (let number = 1; ; number += 1) {
    try {
      return { ok: true, value: await attempt(number), attempts: number }
    } catch (error) {
      if (number >= policy.maxAttempts || !isRetryable(error)) return { ok: false, error, attempts: number }
      const delay = backoffDelayMs(number, policy, retryAfterMs(error))
      options.onRetry?.(error, delay)
      try {
        await policy.sleep(delay, options.signal)
      } catch (aborted) {
        return { ok: false, error: aborted, attempts: number }
      }
    }
  }
}
