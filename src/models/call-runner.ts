// What every evaluator-side model call shares: the shared rate limiter, our own bounded retries (the SDK's are
// turned off so the attempt count and the backoff are ours to test), a per-request timeout and abort signal,
// wall-time measurement, and one error type naming the model and the purpose.

import type OpenAI from 'openai'
import { ModelCallError, modelCallErrorFrom } from './errors.ts'
import type { RateLimiter } from './rate-limiter.ts'
import { withRetries } from './retry.ts'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts'
import type { EvaluatorUsageSource } from './usage.ts'

export interface ModelCallSettings {
  client: OpenAI
  model: string
  source: EvaluatorUsageSource
  /** What the request is for; named in errors and usage events, e.g. `evaluation_judge/task_understanding`. */
  purpose: string
  /** Deadline of each request in ms (the SDK's default when absent). */
  timeoutMs?: number | undefined
  signal?: AbortSignal | undefined
  retry?: Partial<RetryPolicy> | undefined
  /** Shared by concurrent callers; absent means no limit. */
  limiter?: RateLimiter | undefined
  now?: (() => number) | undefined
}

/** The per-request options handed to the SDK method. */
export interface SdkRequestOptions {
  maxRetries: number
  timeout?: number
  signal?: AbortSignal
}

export interface RanModelCall<T> {
  value: T
  latency_ms: number
  attempts: number
}

export async function runModelCall<T>(
  settings: ModelCallSettings,
  send: (options: SdkRequestOptions) => Promise<T>,
): Promise<RanModelCall<T>> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...settings.retry }
  const now = settings.now ?? (() => performance.now())
  const options: SdkRequestOptions = { maxRetries: 0 }
  if (settings.timeoutMs !== undefined) options.timeout = settings.timeoutMs
  if (settings.signal !== undefined) options.signal = settings.signal
  const { limiter, signal } = settings
  const started = now()
  const outcome = await withRetries(
    () => (limiter === undefined ? send(options) : limiter.run(() => send(options), signal)),
    policy,
    {
      signal,
      onRetry: (error, delayMs) => {
        // Everyone sharing the limiter waits out a rate limit, not only the caller that hit it.
        if (limiter !== undefined && (error as { status?: unknown }).status === 429) limiter.pause(delayMs)
      },
    },
  )
  const latency_ms = Math.max(0, Math.round(now() - started))
  if (!outcome.ok) {
    const context = { model: settings.model, purpose: settings.purpose, attempts: outcome.attempts }
    // Aborted while queued in the limiter or waiting to retry: the signal's own reason may be any value.
    if (signal?.aborted) {
      throw new ModelCallError('aborted', 'the caller aborted the request', {
        ...context,
        cause: outcome.error,
      })
    }
    throw modelCallErrorFrom(outcome.error, context)
  }
  return { value: outcome.value, latency_ms, attempts: outcome.attempts }
}
