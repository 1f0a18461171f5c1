// The connector's bookkeeping of delegated work (contract §5): every client delegation id seen (each once),
// which are pending (from the moment they are seen until their valid completion, so pending covers the relay
// of their result), which already had a result relayed, the first retained failure, and the waiters. A
// failure abandons all pending work and wakes every waiter; cancelling a waiter never cancels work.
import type { DelegationWaitOptions } from '../../delegation-lifecycle.ts'
import type { ClientAssistantError } from './errors.ts'

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

export class DelegationLedger {
  readonly #seen: string[] = []
  readonly #pending = new Set<string>()
  readonly #relayed = new Set<string>()
  readonly #waiters = new Set<Waiter>()
  #failure: ClientAssistantError | null = null

  get pending(): number {
    return this.#pending.size
  }

  /** Every id seen, in order, each once. */
  get ids(): string[] {
    return [...this.#seen]
  }

  get failure(): ClientAssistantError | null {
    return this.#failure
  }

  seen(id: string): boolean {
    return this.#seen.includes(id)
  }

  isPending(id: string): boolean {
    return this.#pending.has(id)
  }

  /** Records a new id as pending; false (nothing changes) for an id seen before. */
  accept(id: string): boolean {
    if (this.seen(id)) return false
    this.#seen.push(id)
    this.#pending.add(id)
    return true
  }

  /** A result chunk of `id` went to Live. */
  relayed(id: string): void {
    this.#relayed.add(id)
  }

  hasRelayed(id: string): boolean {
    return this.#relayed.has(id)
  }

  /** The valid completion of a pending id. */
  complete(id: string): void {
    this.#relayed.delete(id)
    this.#pending.delete(id)
    this.#wake()
  }

  /** Retains `failure` (the first one wins), abandons pending work and wakes every waiter. */
  retain(failure: ClientAssistantError): void {
    this.#failure ??= failure
    this.#pending.clear()
    this.#relayed.clear()
    this.#wake()
  }

  /** Resolves once nothing is pending; rejects with the retained failure. */
  wait(options: DelegationWaitOptions = {}): Promise<void> {
    const { signal } = options
    if (signal?.aborted) return Promise.reject(signal.reason)
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#waiters.delete(waiter)
        reject(signal?.reason)
      }
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort)
          reject(error)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#waiters.add(waiter)
      this.#wake()
    })
  }

  /** Settles the waiters that can be settled now: all of them on a failure, or when nothing is pending. */
  wake(): void {
    this.#wake()
  }

  #wake(): void {
    if (this.#failure === null && this.#pending.size > 0) return
    for (const waiter of this.#waiters) {
      if (this.#failure !== null) waiter.reject(this.#failure)
      else waiter.resolve()
    }
    this.#waiters.clear()
  }
}
