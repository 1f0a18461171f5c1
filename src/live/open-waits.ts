// Pending-waiter bookkeeping, split out of session.ts: waits for a server event (waitForEvent, reply) and the
// set of those still open, which the session's end rejects all at once. Kept apart so the session class only
// decides when the end happens, not how each wait is cleaned up.
import type { LiveErrorKind } from './errors.ts'
import type { LiveEventLog } from './event-log.ts'
import type { ReceivedLiveEvent, ServerEvent } from './events.ts'
import type { LiveSessionOutcome } from './outcome.ts'

export interface WaitForEventOptions {
  timeoutMs: number
  fromSeq?: number
  description?: string
}

/** Builds the error a wait rejects with; called when the rejection happens, so it reflects the stage then. */
export type WaitErrorFactory = (message: string, kind: LiveErrorKind) => Error

/** The `client_event_id` a server event answers (its own field, or the one inside an `error`), if any. */
export const clientEventIdOf = (event: ServerEvent): string | undefined => {
  if ('client_event_id' in event && typeof event.client_event_id === 'string') return event.client_event_id
  if (event.type === 'error') return event.error.client_event_id
  return undefined
}

export class OpenWaits {
  /**
   * Rejecters of the waits still open. The session's end rejects them all at once in endAll, so a wait that
   * resolves normally leaves nothing behind (a per-wait `outcome.then` would stay attached until the end).
   */
  readonly #rejecters = new Set<(outcome: LiveSessionOutcome) => void>()

  /** How many waits are still open (each is settled by its match, its deadline or the end). */
  get size(): number {
    return this.#rejecters.size
  }

  /** Resolves with the first event in `log` (at or after `fromSeq`) matching `predicate`, already seen or future. */
  wait(
    log: LiveEventLog,
    predicate: (event: ServerEvent) => boolean,
    options: WaitForEventOptions,
    errorFor: WaitErrorFactory,
  ): Promise<ReceivedLiveEvent> {
    const what = options.description ?? 'a matching event'
    const seen = log.events.slice(options.fromSeq ?? 0).find((received) => predicate(received.event))
    if (seen !== undefined) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const done = (action: () => void) => {
        clearTimeout(timer)
        unsubscribe()
        this.#rejecters.delete(onEnd)
        action()
      }
      const timer = setTimeout(() => {
        done(() => reject(errorFor(`no ${what} within ${options.timeoutMs} ms`, 'timeout')))
      }, options.timeoutMs)
      const unsubscribe = log.subscribe((received) => {
        if (predicate(received.event)) done(() => resolve(received))
      })
      const onEnd = (outcome: LiveSessionOutcome) =>
        done(() =>
          reject(
            outcome.type === 'failed'
              ? outcome.error
              : errorFor(`the session ended (${outcome.type}) while waiting for ${what}`, 'ended'),
          ),
        )
      this.#rejecters.add(onEnd)
    })
  }

  /** The session ended: reject every open wait with the failure itself, or an `ended` error. */
  endAll(outcome: LiveSessionOutcome): void {
    const rejecters = [...this.#rejecters]
    this.#rejecters.clear()
    for (const endWait of rejecters) endWait(outcome)
  }
}
