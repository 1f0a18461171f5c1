// What the loop waker (loop-waker.ts) and its thread (loop-waker-thread.ts) share, in a module of its own so that
// the thread loads nothing else.

/** What the owner and the thread share: `moments` (monotonic ns: [DUE, SLEEPING_UNTIL], 0 for none) and `changes`. */
export interface LoopWakerShared {
  moments: SharedArrayBuffer
  /** Int32 [a counter the owner bumps to wake the thread, STOP]. */
  changes: SharedArrayBuffer
}

/** The moment asked for. */
export const DUE = 0
/** Until when the thread sleeps (0: until woken). */
export const SLEEPING_UNTIL = 1
/** Set to end the thread. */
export const STOP = 1
