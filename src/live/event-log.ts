import type { ReceivedLiveEvent } from './events.ts'

export type LiveEventListener = (received: ReceivedLiveEvent) => void

/** What the log keeps of an event once its listeners saw it; by default all of it. */
export type LiveEventRetention = (received: ReceivedLiveEvent) => ReceivedLiveEvent

/**
 * Ordered record of everything a session received. Every iterator starts at the first event, so a consumer that
 * subscribes after `session.started` still sees it; iteration ends once the log is sealed (the session reached its
 * terminal outcome) and every event was delivered. Listeners see events synchronously as they arrive.
 */
export class LiveEventLog {
  readonly #events: ReceivedLiveEvent[] = []
  readonly #listeners = new Set<LiveEventListener>()
  readonly #retain: LiveEventRetention | null
  #wakers: Array<() => void> = []
  #sealed = false

  constructor(retain: LiveEventRetention | null = null) {
    this.#retain = retain
  }

  get events(): readonly ReceivedLiveEvent[] {
    return this.#events
  }

  get sealed(): boolean {
    return this.#sealed
  }

  append(received: ReceivedLiveEvent): void {
    if (this.#sealed) return
    const index = this.#events.push(received) - 1
    for (const listener of this.#listeners) listener(received)
    // Listeners got the whole event; the log (read later, by iterators and after the session) keeps what is needed.
    if (this.#retain !== null) this.#events[index] = this.#retain(received)
    this.#wake()
  }

  /** No more events will be appended; pending iterators drain what is left and finish. */
  seal(): void {
    if (this.#sealed) return
    this.#sealed = true
    this.#wake()
  }

  /** Calls `listener` for every future event; returns the unsubscribe function. */
  subscribe(listener: LiveEventListener): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  async *iterate(): AsyncGenerator<ReceivedLiveEvent, void, undefined> {
    let index = 0
    for (;;) {
      while (index < this.#events.length) {
        const next = this.#events[index]
        index += 1
        if (next !== undefined) yield next
      }
      if (this.#sealed) return
      await new Promise<void>((resolve) => this.#wakers.push(resolve))
    }
  }

  #wake(): void {
    const wakers = this.#wakers
    this.#wakers = []
    for (const wake of wakers) wake()
  }
}
