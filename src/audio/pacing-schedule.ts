// One frame schedule for every real-time pacer in the process. With a timer per pacer, 32 concurrent calls are
// 64 Node timers and 64 abortable timer promises armed and torn down every 20 ms; here all pacers' deadlines sit
// in one queue ordered by due time behind a single timer aimed at the earliest. When it fires, every waiter that
// is due is released in deadline order within the same turn of the event loop, so a frame never waits behind a
// later one, and so is every waiter that comes due while those frames are being sent. Deadlines are absolute
// (performance.now() milliseconds), and a waiter is never released early.
import { type LoopWaker, loopNowMs, processLoopWaker } from './loop-waker.ts'

interface Waiter {
  dueMs: number
  resolve: () => void
  reject: (reason: unknown) => void
  signal: AbortSignal | undefined
}

/** How long one turn may go on releasing frames that came due during it (a fifth of a 20 ms frame). */
const MAX_TURN_MS = 4

export interface FrameScheduleOptions {
  /** Monotonic milliseconds (performance.now by default). */
  now?: () => number
  /** How long a turn may go on releasing frames before the event loop takes input (4 ms by default). */
  maxTurnMs?: number
  /**
   * Wakes the event loop when the timer is due (loop-waker.ts); without one the timer alone wakes it. A waker keeps
   * one moment, so it serves one schedule: the process's shared one has the process's waker.
   */
  waker?: LoopWaker
}

export class FrameSchedule {
  /** Waiters by due time, earliest first (a few hundred at most: one per pacer). */
  readonly #waiters: Waiter[] = []
  readonly #now: () => number
  readonly #maxTurnMs: number
  readonly #waker: LoopWaker | undefined
  /** libuv's clock minus this schedule's (0 for a clock of the caller's own, as tests give). */
  readonly #loopClockOffsetMs: number
  #timer: ReturnType<typeof setTimeout> | undefined
  /** Set while an overlong turn waits for the event loop to take input (its check phase fires the next turn). */
  #yield: ReturnType<typeof setImmediate> | undefined
  /** When the current turn began (the last fire). */
  #turnStartedMs = 0
  /** The due time the timer is armed for; undefined when it is not armed. */
  #armedForMs: number | undefined
  /**
   * The signals already listened to. A pacer waits fifty times a second with the same signal: one abort listener
   * per signal for its whole life (it finds that signal's waiters in the queue), instead of an EventTarget listener,
   * or a set entry, added and removed for every frame.
   */
  readonly #listened = new WeakSet<AbortSignal>()

  constructor(options: FrameScheduleOptions = {}) {
    this.#now = options.now ?? (() => performance.now())
    this.#maxTurnMs = options.maxTurnMs ?? MAX_TURN_MS
    this.#waker = options.waker
    this.#loopClockOffsetMs = options.now === undefined ? loopNowMs() - performance.now() : 0
  }

  /** How many waiters are queued (tests and the bench read it). */
  get pending(): number {
    return this.#waiters.length
  }

  /** Resolves once the clock reached `dueMs`; rejects with the signal's reason when it aborts first. */
  wait(dueMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (signal !== undefined && !this.#listened.has(signal)) this.#listen(signal)
    return new Promise<void>((resolve, reject) => {
      this.#insert({ dueMs, resolve, reject, signal })
      this.#arm()
    })
  }

  #listen(signal: AbortSignal): void {
    this.#listened.add(signal)
    signal.addEventListener(
      'abort',
      () => {
        const aborted = this.#waiters.filter((waiter) => waiter.signal === signal)
        for (const waiter of aborted) this.#remove(waiter)
        for (const waiter of aborted) waiter.reject(signal.reason)
      },
      { once: true },
    )
  }

  #insert(waiter: Waiter): void {
    const waiters = this.#waiters
    // Binary search for the first waiter due later: equal deadlines keep their arrival order.
    let low = 0
    let high = waiters.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((waiters[middle] as Waiter).dueMs <= waiter.dueMs) low = middle + 1
      else high = middle
    }
    waiters.splice(low, 0, waiter)
  }

  #remove(waiter: Waiter): void {
    const index = this.#waiters.indexOf(waiter)
    if (index >= 0) this.#waiters.splice(index, 1)
    if (this.#waiters.length === 0) this.#disarm()
  }

  /** Aims the one timer at the earliest deadline (re-aimed only when that deadline moved earlier). */
  #arm(): void {
    const first = this.#waiters[0]
    // A turn that ran over fires again once the loop took input, and arms then.
    if (first === undefined || this.#yield !== undefined) return
    if (this.#armedForMs !== undefined && this.#armedForMs <= first.dueMs) return
    this.#disarm()
    this.#armedForMs = first.dueMs
    const nowMs = this.#now()
    // With the waker: a Node timer is due once libuv's clock, whole milliseconds truncated, has gone as many past
    // the one it read when the timer was armed (now). Aimed at the first whole millisecond at or after the
    // deadline, it is due when the waker wakes the loop there. Should libuv's clock read otherwise (its coarse
    // clock, or a millisecond turning between this read and setTimeout's), a fire before the deadline finds
    // nothing due and aims again (#releaseDue): early never releases a frame.
    const loopMs = Math.floor(nowMs + this.#loopClockOffsetMs)
    const wakeLoopMs = Math.max(loopMs + 1, Math.ceil(first.dueMs + this.#loopClockOffsetMs))
    const delayMs =
      this.#waker?.wakeAt(wakeLoopMs) === true
        ? wakeLoopMs - loopMs
        : // Without it the loop sleeps the delay from now: the distance rounded up never wakes it early.
          Math.max(0, Math.ceil(first.dueMs - nowMs))
    this.#timer = setTimeout(this.#onDue, delayMs)
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#armedForMs = undefined
    this.#waker?.cancel()
  }

  #fire(): void {
    this.#timer = undefined
    this.#yield = undefined
    this.#armedForMs = undefined
    this.#turnStartedMs = this.#now()
    this.#releaseDue()
  }

  /**
   * Releases every waiter due by now, in deadline order, and looks again once the work they set going is done: a
   * turn's frames take a while to send (at 32 calls, about a tenth of a millisecond a call, more at the end of a
   * step), and a deadline passed meanwhile goes out in the same turn instead of waiting for the next timer: Node's
   * timers count whole milliseconds, one at the least, from the event loop's clock truncated to the millisecond,
   * so the next would wake up to a millisecond after a deadline already gone. This runs only in the timer's turn,
   * never inside an event's handling, so what an event started is never interleaved with a frame. When nothing more is
   * due, the timer is aimed anew even if it is aimed already: arming one reads the event loop's clock afresh, and
   * the loop computes how long to sleep from the clock it read last, so a timer armed before the frames went out
   * would wake that much late (a 5 ms timer armed before 0.8 ms of work woke 1.75 ms late at p90, one armed after
   * it 1.07 ms; Node 24, this machine).
   */
  #releaseDue(): void {
    const nowMs = this.#now()
    let due = 0
    while (due < this.#waiters.length && (this.#waiters[due] as Waiter).dueMs <= nowMs) due += 1
    if (due === 0) {
      this.#disarm()
      this.#arm()
      return
    }
    if (nowMs - this.#turnStartedMs >= this.#maxTurnMs) {
      // An overloaded turn (its frames' work outlasting their spacing) ends, so that what the sessions sent is
      // heard first: the check phase comes after the loop polled for input. Not a timer: one armed for a deadline
      // already gone can fire again in the same timers phase, before any input.
      this.#disarm()
      this.#yield = setImmediate(this.#onDue)
      return
    }
    const released = this.#waiters.splice(0, due)
    for (const waiter of released) waiter.resolve()
    // The released waiters go on in promise callbacks queued ahead of this one; a tick queued from it runs once the
    // microtask queue is empty (Node drains it before the next tick), so after the promise callbacks they queue in
    // turn as well. Work they hand to process.nextTick or to a socket's callbacks is not waited for.
    queueMicrotask(this.#afterTheirWork)
  }

  // Bound once, not a closure per timer or turn.
  readonly #onDue = () => this.#fire()
  readonly #afterTheirWork = () => process.nextTick(this.#releaseDueAgain)
  readonly #releaseDueAgain = () => this.#releaseDue()
}

/** The process's schedule: every real-time pacer (audio/pacing.ts's realTimeClock) waits on it. */
export const sharedFrameSchedule = new FrameSchedule({ waker: processLoopWaker() })
