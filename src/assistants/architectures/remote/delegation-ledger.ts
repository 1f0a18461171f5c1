// The connector's bookkeeping of delegated work (contract §5): every client delegation id seen (each once),
// which are pending (from the moment they are seen until their valid completion, so pending covers the relay
// of their result), which already had a result relayed, the first retained failure, and the waiters. A
// failure abandons all pending work and wakes every waiter; cancelling a waiter never cancels work.
import { type DelegationWaitOptions, QuietWaiters } from '../../delegation-lifecycle.ts'
import type { ClientAssistantError } from './errors.ts'

export class DelegationLedger {
  /** Insertion-ordered, so `ids` keeps the order ids were seen in. */
  readonly #seen = new Set<string>()
  readonly #pending = new Set<string>()
  readonly #relayed = new Set<string>()
  readonly #waiters = new QuietWaiters()
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
    return this.#seen.has(id)
  }

  isPending(id: string): boolean {
    return this.#pending.has(id)
  }

  /** Records a new id as pending; false (nothing changes) for an id seen before. */
  accept(id: string): boolean {
    if (this.seen(id)) return false
    this.#seen.add(id)
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
    const waiting = this.#waiters.add(options.signal)
    this.#wake()
    return waiting
  }

  #wake(): void {
    this.#waiters.settle(this.#failure, this.#pending.size)
  }
}
