// The lifecycle both delegation controllers (Responses and client) share. A controller accepts delegated
// work as tasks; the lifecycle counts them as pending from acceptance until the task has published its result,
// retains the first failure, lets callers wait for quiet, and owns shutdown:
//
//   const lifecycle = new DelegationLifecycle('responses delegation')
//   lifecycle.track('call_1', async (signal) => { …run the tool, publish the result… })  // false once closed
//   await lifecycle.wait({ signal })   // resolves when nothing is pending; rejects with the retained error
//   await lifecycle.close()            // stops acceptance, aborts and joins the tasks, wakes waiters; once
//
// Cancelling a waiter (its AbortSignal) only stops that wait: the work keeps running, because the caller who
// stopped waiting (a test timeout, a turn deadline) does not own the work; the controller's close() does.

/** Why a wait or a task ended without its work finishing; `kind` tells a cancelled waiter from a shutdown. */
export class DelegationLifecycleError extends Error {
  override name = 'DelegationLifecycleError'
  readonly kind: 'task_failed' | 'closed_with_pending_work'

  constructor(message: string, kind: DelegationLifecycleError['kind'], options?: ErrorOptions) {
    super(message, options)
    this.kind = kind
  }
}

export interface DelegationWaitOptions {
  /** Stops this wait (rejecting with the signal's reason); never cancels the delegated work itself. */
  signal?: AbortSignal
}

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * The callers waiting for quiet, shared by this lifecycle and the remote connector's ledger: each wait settles
 * at the first settle() that finds a retained failure (rejecting with it) or nothing pending (resolving).
 */
export class QuietWaiters {
  readonly #waiters = new Set<Waiter>()

  /** A wait that settle() will end; aborting `signal` ends only this wait, with the signal's reason. */
  add(signal: AbortSignal | undefined): Promise<void> {
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
    })
  }

  /** Rejects every waiter with `failure` when there is one, resolves them all when nothing is pending. */
  settle(failure: unknown, pending: number): void {
    if (failure === null && pending > 0) return
    for (const waiter of this.#waiters) {
      if (failure !== null) waiter.reject(failure)
      else waiter.resolve()
    }
    this.#waiters.clear()
  }
}

export class DelegationLifecycle {
  /** Names the controller in error messages ("responses delegation", "client delegation"). */
  readonly name: string
  readonly #abort = new AbortController()
  readonly #tasks = new Set<Promise<void>>()
  readonly #waiters = new QuietWaiters()
  #error: Error | null = null
  #closing: Promise<void> | null = null

  constructor(name: string) {
    this.name = name
  }

  /** Tasks accepted and not yet finished (a task finishes after it published its result). */
  get pending(): number {
    return this.#tasks.size
  }

  /** True once close() was called: no new work is accepted. */
  get closed(): boolean {
    return this.#closing !== null
  }

  /** The first failure retained by this lifecycle, or null. */
  get error(): Error | null {
    return this.#error
  }

  /** Aborted when close() begins; tasks must pass it to anything that can wait. */
  get signal(): AbortSignal {
    return this.#abort.signal
  }

  /**
   * Accepts one unit of delegated work and starts it now (so it sees a later close() abort). Returns false, running nothing, once
   * the lifecycle is closed. A task that rejects is retained as the lifecycle error (unless it rejected because
   * close() aborted it), which every later wait() reports.
   */
  track(label: string, work: (signal: AbortSignal) => Promise<void>): boolean {
    if (this.closed) return false
    const signal = this.#abort.signal
    const task: Promise<void> = startNow(work, signal)
      .catch((error: unknown) => {
        if (signal.aborted) return
        this.fail(
          new DelegationLifecycleError(`${this.name}: ${label} failed: ${describe(error)}`, 'task_failed', {
            cause: error,
          }),
        )
      })
      .finally(() => {
        this.#tasks.delete(task)
        this.#wake()
      })
    this.#tasks.add(task)
    return true
  }

  /** Retains `error` (the first one wins) and rejects every current waiter with it. */
  fail(error: Error): void {
    this.#error ??= error
    this.#wake()
  }

  /**
   * Resolves once nothing is pending; rejects with the retained error as soon as there is one. After close() it
   * settles at once: with the retained error, or resolved.
   */
  wait(options: DelegationWaitOptions = {}): Promise<void> {
    const waiting = this.#waiters.add(options.signal)
    this.#wake()
    return waiting
  }

  /**
   * Stops accepting work, aborts the owned tasks and waits for all of them to end, then wakes every waiter.
   * Work still pending at close becomes the retained error (`closed_with_pending_work`) unless a failure was
   * retained earlier. Idempotent: every call returns the same promise, and it never rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown()
    return this.#closing
  }

  async #shutDown(): Promise<void> {
    const unfinished = this.#tasks.size
    if (unfinished > 0) {
      this.#error ??= new DelegationLifecycleError(
        `${this.name}: closed with ${unfinished} delegated task(s) unfinished; their results were never published`,
        'closed_with_pending_work',
      )
    }
    this.#abort.abort(new DelegationLifecycleError(`${this.name} closed`, 'closed_with_pending_work'))
    // Tasks remove themselves as they end; new ones cannot be added any more.
    while (this.#tasks.size > 0) await Promise.allSettled([...this.#tasks])
    this.#wake()
  }

  /** Settles the waiters that can be settled now: all of them on an error, or when nothing is pending. */
  #wake(): void {
    this.#waiters.settle(this.#error, this.#tasks.size)
  }
}

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts. Tasks wrap what they wait on
 * in it so close() can end them even when the awaited work (a tool, a backend) ignores the signal.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Runs `work` synchronously; a synchronous throw becomes a rejection like any other task failure. */
function startNow(work: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
  try {
    return Promise.resolve(work(signal))
  } catch (error) {
    return Promise.reject(error)
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
