// Wakes this thread's event loop at a chosen moment, from a thread of its own (loop-waker-thread.ts).
//
// Why: libuv counts time in whole milliseconds, truncated, and sleeps until a timer as many whole milliseconds as
// separate the timer's expiry from the clock it read last. A loop that woke for input at 10.7 ms and goes back to
// sleep for a timer due at 12 sleeps 2 ms from 10.7 and wakes at 12.7. A real-time call's loop wakes for input
// all the time (the other side's audio, the server's events), so its frame timers woke a random fraction of a
// millisecond late on top of the millisecond they are rounded to: at 32 calls the relay's p99 was 1.4-1.5x that of
// the same timers on a quiet loop. A thread that sleeps on a futex keeps time to tens of microseconds; its
// message wakes the loop just after the millisecond the timer is due, and the timer fires then, in the timers
// phase as before (frames never go out inside an event's handling).
//
// Measured (bench/run-realtime.ts --conversations 32 --compare, 12 rounds, 2 cores): while all calls were under
// way the relay's p99 went from 1.51-1.87 ms (mean 1.63) to 1.16-1.53 (mean 1.30), lower in every round; the
// price is a thread wake for every millisecond that holds a deadline (at most a thousand a second, however many
// calls), about a tenth more client CPU at 32 calls. At 64 calls it lowered p50 but not p99 (2.04-2.13 ms before,
// 2.20-2.76 after): there the loop's turns often outlast a millisecond, and the wakes cost CPU two cores lack.
// It assumes libuv reads the monotonic clock, as it does where the coarse clock ticks slower than a millisecond;
// where libuv reads the coarse one, a wake can come before its clock shows the millisecond, and the timer then
// fires on its own, as without the thread.
//
// The timers alone still fire when the thread cannot start: it is an accuracy aid, never a dependency.
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { DUE, type LoopWakerShared, SLEEPING_UNTIL, STOP } from './loop-waker-layout.ts'

export interface LoopWaker {
  /**
   * Wakes the loop once libuv's clock reads `loopMs` (loopNowMs's milliseconds), replacing the moment asked
   * before; false when there is no thread to do it (it could not start), and the caller's timer is on its own.
   */
  wakeAt(loopMs: number): boolean
  /** Forgets the moment asked for: nothing waits any more. */
  cancel(): void
  /** Ends the thread (tests; the process's own waker lives as long as the process, and never holds it open). */
  stop(): Promise<void>
  /** How many times the thread woke the loop. */
  readonly wakes: number
}

/** libuv's clock: the monotonic clock in milliseconds (libuv truncates it to whole ones). */
export function loopNowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

/** The thread's module, beside this one: .ts when run from source, .js in the built package. */
const THREAD_MODULE = new URL(
  `./loop-waker-thread${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
)

/**
 * The process's waker, one however many copies of this module are loaded (a test runner that loads modules afresh
 * for every file would otherwise leave a sleeping thread behind for each).
 */
export function processLoopWaker(): LoopWaker {
  const key = Symbol.for('live-evals.loop-waker')
  const holder = globalThis as { [key: symbol]: LoopWaker | undefined }
  holder[key] ??= createLoopWaker()
  return holder[key]
}

/**
 * Starts the thread at the first wakeAt, not before: a process that never paces in real time never has one.
 * `threadModule` is for tests (one that cannot load).
 */
export function createLoopWaker(threadModule: URL = THREAD_MODULE): LoopWaker {
  const shared: LoopWakerShared = { moments: new SharedArrayBuffer(16), changes: new SharedArrayBuffer(8) }
  const moments = new BigInt64Array(shared.moments)
  const changes = new Int32Array(shared.changes)
  const wake = () => {
    Atomics.add(changes, 0, 1)
    Atomics.notify(changes, 0)
  }
  let thread: Worker | undefined
  let failed = false
  let wakes = 0

  const start = (): boolean => {
    if (thread !== undefined) return true
    if (failed) return false
    try {
      // None of the process's flags: the thread needs none, and some refuse a module file (--input-type).
      thread = new Worker(threadModule, { workerData: shared, execArgv: [] })
    } catch {
      failed = true
      return false
    }
    thread.on('message', () => {
      wakes += 1
    })
    // An error, or an end nobody asked for: the timers go on alone.
    thread.once('exit', () => {
      failed = true
      thread = undefined
    })
    thread.once('error', () => {})
    thread.unref()
    return true
  }

  const ask = (ns: bigint) => {
    Atomics.store(moments, DUE, ns)
    // Asleep until later (or until woken): wake it to look. Otherwise it looks by itself in time.
    const sleepingUntil = Atomics.load(moments, SLEEPING_UNTIL)
    if (sleepingUntil === 0n || sleepingUntil > ns) wake()
  }

  return {
    wakeAt(loopMs) {
      if (!start()) return false
      ask(BigInt(Math.ceil(loopMs)) * 1_000_000n)
      return true
    },
    cancel() {
      if (thread !== undefined) Atomics.store(moments, DUE, 0n)
    },
    async stop() {
      const stopping = thread
      thread = undefined
      failed = true
      if (stopping === undefined) return
      const exited = new Promise((resolve) => stopping.once('exit', resolve))
      // Held open until the thread has ended: a stop awaited by a process with nothing else to do.
      stopping.ref()
      Atomics.store(changes, STOP, 1)
      wake()
      await exited
    },
    get wakes() {
      return wakes
    },
  }
}
