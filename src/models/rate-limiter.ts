// One limiter shared by every evaluator-side model call of a run (judge, observer, …), so concurrent scenarios do not
// meet a wall of 429s: at most `maxConcurrent` requests in flight, starts spaced by `minIntervalMs`, and after a
// 429 every caller waits out the server's hint together instead of each hammering it on its own schedule.
// The clock and the sleep are injectable so tests decide time.

import { defaultSleep, type Sleep } from './retry-policy.ts'

export interface RateLimiterOptions {
  /** Requests in flight at once (default 4). */
  maxConcurrent?: number
  /** Minimum time between two request starts, in ms (default 0). */
  minIntervalMs?: number
  now?: () => number
  sleep?: Sleep
}

export interface RateLimiter {
  /** Runs `task` when a slot is free and its start time has come; the slot is freed when it settles. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>
  /** Holds back every start until `delayMs` from now (called after a 429). */
  pause(delayMs: number): void
  readonly active: number
  readonly waiting: number
}

interface Waiter {
  resolve: () => void
  reject: (reason: unknown) => void
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const maxConcurrent = options.maxConcurrent ?? 4
  const minIntervalMs = options.minIntervalMs ?? 0
  if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(
      `Rate limiter maxConcurrent must be an integer of at least 1 (got ${maxConcurrent}).`,
    )
  }
  if (!(minIntervalMs >= 0)) {
    throw new RangeError(`Rate limiter minIntervalMs must be 0 or more (got ${minIntervalMs}).`)
  }
  const now = options.now ?? (() => performance.now())
  const sleep = options.sleep ?? defaultSleep
  const queue: Waiter[] = []
  let active = 0
  let nextStartAt = Number.NEGATIVE_INFINITY
  let resumeAt = Number.NEGATIVE_INFINITY

  function acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (active < maxConcurrent) {
      active += 1
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        reject,
      }
      const onAbort = () => {
        const index = queue.indexOf(waiter)
        if (index >= 0) queue.splice(index, 1)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      queue.push(waiter)
    })
  }

  function release(): void {
    const next = queue.shift()
    // The slot passes straight to the next waiter, so `active` stays the same.
    if (next !== undefined) next.resolve()
    else active -= 1
  }

  /** Reserves this request's start time (spacing and pauses), then waits for it. */
  async function waitForStart(signal: AbortSignal | undefined): Promise<void> {
    const current = now()
    const startAt = Math.max(current, nextStartAt, resumeAt)
    nextStartAt = startAt + minIntervalMs
    if (startAt > current) await sleep(startAt - current, signal)
  }

  return {
    async run(task, signal) {
      await acquire(signal)
      try {
        await waitForStart(signal)
        return await task()
      } finally {
        release()
      }
    },
    pause(delayMs) {
      resumeAt = Math.max(resumeAt, now() + delayMs)
    },
    get active() {
      return active
    },
    get waiting() {
      return queue.length
    },
  }
}
