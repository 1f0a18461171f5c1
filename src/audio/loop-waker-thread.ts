// The loop waker's thread (loop-waker.ts). It sleeps on a futex until the moment asked for, which keeps time to
// tens of microseconds where the event loop keeps whole milliseconds, then posts an empty message: its arrival
// wakes the owning thread's event loop, which then runs the timers due by then. A new moment asked for while it
// sleeps wakes it to look again; a moment of zero means none.
import { parentPort, workerData } from 'node:worker_threads'
import type { LoopWakerShared } from './loop-waker.ts'

const shared = workerData as LoopWakerShared
const dueNs = new BigInt64Array(shared.dueNs)
const changes = new Int32Array(shared.changes)

while (Atomics.load(changes, 1) === 0) {
  const seen = Atomics.load(changes, 0)
  const due = Atomics.load(dueNs, 0)
  if (due === 0n) {
    Atomics.wait(changes, 0, seen)
    continue
  }
  const leftNs = due - process.hrtime.bigint()
  if (leftNs > 0n) {
    Atomics.wait(changes, 0, seen, Number(leftNs) / 1e6)
    continue
  }
  // Done with this moment, unless a new one was asked for meanwhile.
  Atomics.compareExchange(dueNs, 0, due, 0n)
  parentPort?.postMessage(null)
}
