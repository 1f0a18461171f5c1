// How model calls retry (retry.ts carries it out): the attempts and the backoff. Apart from retry.ts, which knows
// the openai SDK's errors, so a test's time budget (src/grading/judge/time-budget.ts) is computed without the SDK.
import { setTimeout as sleepFor } from 'node:timers/promises'

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

export interface RetryPolicy {
  /** Requests in total, the first included (1 = no retry). */
  maxAttempts: number
  /** Delay before the second attempt; doubled for each later one. */
  baseDelayMs: number
  /** Cap on any one delay, the server's hint included. */
  maxDelayMs: number
  sleep: Sleep
}

export const defaultSleep: Sleep = async (ms, signal) => {
  await sleepFor(ms, undefined, signal === undefined ? undefined : { signal })
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  sleep: defaultSleep,
}
