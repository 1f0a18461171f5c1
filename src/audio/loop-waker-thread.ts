// The loop waker's thread (loop-waker.ts). It sleeps on a futex until the moment asked for, which keeps time to
// tens of microseconds where the event loop keeps whole milliseconds, then posts an empty message: its arrival
// wakes the owning thread's event loop, which then runs the timers due by then.
//
// It says until when it sleeps (SLEEPING_UNTIL), so that the owner wakes it only for a moment earlier than that.
// After a wake it looks again at the next millisecond by itself: the owner asks for its next moment once its timer
// has run, most often that very millisecond, and telling a thread asleep for good would cost a wake of its own.
import { parentPort, workerData } from 'node:worker_threads'
import { DUE, type LoopWakerShared, SLEEPING_UNTIL, STOP } from './loop-waker-layout.ts'

const NS_PER_MS = 1_000_000n
const shared = workerData as LoopWakerShared
const moments = new BigInt64Array(shared.moments)
const changes = new Int32Array(shared.changes)

let lookAgainNs = 0n
for (;;) {
  // The counter first, then the stop flag: a stop that bumps the counter after this read cuts the wait short.
  const seen = Atomics.load(changes, 0)
  if (Atomics.load(changes, STOP) !== 0) break
  const nowNs = process.hrtime.bigint()
  const due = Atomics.load(moments, DUE)
  if (due !== 0n && due <= nowNs) {
    // Done with this moment, unless a new one was asked for meanwhile.
    Atomics.compareExchange(moments, DUE, due, 0n)
    parentPort?.postMessage(null)
    lookAgainNs = (nowNs / NS_PER_MS + 1n) * NS_PER_MS
    continue
  }
  let untilNs = due
  if (lookAgainNs > nowNs && (untilNs === 0n || lookAgainNs < untilNs)) untilNs = lookAgainNs
  // Said before the moment is read again: an owner that asks for an earlier one after this store sees it and wakes
  // the thread; one that asked before it is seen here.
  Atomics.store(moments, SLEEPING_UNTIL, untilNs)
  if (Atomics.load(moments, DUE) !== due) continue
  if (untilNs === 0n) Atomics.wait(changes, 0, seen)
  else Atomics.wait(changes, 0, seen, Math.max(0, Number(untilNs - process.hrtime.bigint()) / 1e6))
}
