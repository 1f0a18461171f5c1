// How long a fault holds something back (a slow tool, a stalled backend), on the clock the call runs on: real time
// live, the media clock offline. Offline the virtual clock only moves when the driver steps it, so a wait there is
// due at a media-clock time and resolves when the driver advances the clock past it: a 2 s slow tool answers 2 s
// of call audio later, every run the same. release() ends every wait at once (the call is over: nothing may hang
// on a clock that no longer moves).
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'

interface VirtualWait {
  dueMs: number
  resolve: () => void
}

export class FaultTimers {
  #virtual: { nowMs: number; waits: VirtualWait[] } | null = null
  readonly #released = new AbortController()

  /** From now on, waits are due on the media clock that advanceTo moves (offline, virtual clock). */
  useVirtualClock(nowMs = 0): void {
    this.#virtual ??= { nowMs, waits: [] }
  }

  get virtual(): boolean {
    return this.#virtual !== null
  }

  /** Resolves after `ms` of call time (media clock when virtual, else wall clock), or at release(). */
  wait(ms: number): Promise<void> {
    if (this.#released.signal.aborted || ms <= 0) return Promise.resolve()
    const virtual = this.#virtual
    if (virtual === null) {
      return sleep(ms, undefined, { signal: this.#released.signal }).catch(() => undefined)
    }
    return new Promise((resolve) => virtual.waits.push({ dueMs: virtual.nowMs + ms, resolve }))
  }

  /** Virtual clock: the media clock reached `nowMs`; every wait due by then resolves. Returns how many did. */
  advanceTo(nowMs: number): number {
    const virtual = this.#virtual
    if (virtual === null) return 0
    virtual.nowMs = Math.max(virtual.nowMs, nowMs)
    const due = virtual.waits.filter((wait) => wait.dueMs <= virtual.nowMs)
    if (due.length === 0) return 0
    virtual.waits = virtual.waits.filter((wait) => wait.dueMs > virtual.nowMs)
    for (const wait of due) wait.resolve()
    return due.length
  }

  /**
   * advanceTo, then, when it released a wait, two turns of the event loop: the work the wait held (a tool's
   * result, then its publication to the service) continues in promise jobs and on the next tick at most (the tool
   * runtime starts and ends tools outside the receive loop). A call awaits it before its next frame, in every mode:
   * real time, a late frame goes out without yielding, so a held tool output used to follow one or two frames
   * later than in its replay (where round trips come first), and the replayed delegation settled earlier.
   */
  advanceAndRun(nowMs: number): Promise<void> | undefined {
    return this.advanceTo(nowMs) > 0 ? twoTurns() : undefined
  }

  /** The call is over: every pending and later wait resolves at once. */
  release(): void {
    this.#released.abort()
    const virtual = this.#virtual
    if (virtual === null) return
    const waits = virtual.waits
    virtual.waits = []
    for (const wait of waits) wait.resolve()
  }

  /** Waits not yet due (virtual clock). */
  get pending(): number {
    return this.#virtual?.waits.length ?? 0
  }
}

async function twoTurns(): Promise<void> {
  await nextTurn()
  await nextTurn()
}
