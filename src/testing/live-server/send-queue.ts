// One connection's outbound frames, paced so that a client that stops reading costs at most the send-buffer
// bound and is told so. Frames go to the socket only while little is queued there (SOCKET_HIGH_WATER_BYTES);
// the rest wait here, in order. What counts against the bound is everything this process holds for the client:
// the socket's queue (ws `bufferedAmount`: the net socket's writableLength plus ws's own queue) and ours.
// Passing the bound drops our queue at once (the memory is released then, not when the client goes), queues the
// close frame 1008 `send_buffer_exceeded` behind at most the small socket queue, so a client that reads again
// soon sees that code rather than an abrupt end, and destroys the socket `closeGraceMs` later if it has not
// finished closing. A normal close waits for the frames before it, under the same grace.
import type { Writable } from 'node:stream'
import type { WebSocket } from 'ws'
import { LIMIT_CLOSE, SEND_BUFFER_EXCEEDED_REASON } from './limits.ts'

/** Bytes the socket may hold before further frames wait in our queue (a few audio deltas). */
export const SOCKET_HIGH_WATER_BYTES = 64 * 1024

export interface SendQueueLimits {
  maxSendBufferBytes: number
  closeGraceMs: number
}

export class SendQueue {
  readonly #ws: WebSocket
  readonly #limits: SendQueueLimits
  readonly #onOverflow: () => void
  #waiting: string[] = []
  #waitingBytes = 0
  /** Set once a close has been asked for: nothing more is queued. */
  #closing = false
  #deferredClose: { code: number; reason: string } | null = null
  #graceTimer: NodeJS.Timeout | undefined
  #graceDeadline: number | null = null
  #destroyedAt: number | null = null
  #peak = 0
  /** The connection's socket, corked while a turn of the event loop sends (see #coalesce); null: not corked. */
  readonly #socket: Pick<Writable, 'cork' | 'uncork'> | null
  #corked = false

  constructor(
    ws: WebSocket,
    limits: SendQueueLimits,
    onOverflow: () => void,
    socket: Pick<Writable, 'cork' | 'uncork'> | null = null,
  ) {
    this.#ws = ws
    this.#limits = limits
    this.#onOverflow = onOverflow
    this.#socket = socket
    ws.once('close', () => {
      clearTimeout(this.#graceTimer)
      this.#release()
    })
  }

  /** Bytes held for this client now: in the socket and here. */
  get queuedBytes(): number {
    return this.#ws.bufferedAmount + this.#waitingBytes
  }

  /** A close has been asked for (or the bound passed): nothing more goes out. */
  get closing(): boolean {
    return this.#closing
  }

  /** The most bytes ever held for this client at once. */
  get peakQueuedBytes(): number {
    return this.#peak
  }

  send(text: string): void {
    if (this.#closing || this.#ws.readyState !== this.#ws.OPEN) return
    const bytes = Buffer.byteLength(text)
    if (this.queuedBytes + bytes > this.#limits.maxSendBufferBytes) {
      this.#onOverflow()
      this.#release()
      this.#startClose(LIMIT_CLOSE.sendBufferExceeded, SEND_BUFFER_EXCEEDED_REASON)
      return
    }
    this.#waiting.push(text)
    this.#waitingBytes += bytes
    this.#peak = Math.max(this.#peak, this.queuedBytes)
    this.#flush()
  }

  /** Closes after the frames already queued (they are part of what the session said), within the grace. */
  close(code: number, reason: string): void {
    if (this.#closing) return
    if (this.#waiting.length === 0) {
      // Everything said is with the socket: ws's own close handshake (and its timeout) as before.
      this.#closing = true
      this.#ws.close(code, reason)
      return
    }
    this.#closing = true
    this.#deferredClose = { code, reason }
    this.#armGrace()
  }

  terminate(): void {
    this.#closing = true
    this.#release()
    // What this turn already sent goes before the drop (a fault plan's "after N events" counts those events).
    if (this.#corked) this.#uncork()
    this.#destroy()
  }

  /**
   * When this queue destroyed the socket (its descriptor and queue are released then; ws reports the close
   * only later, in the event loop's close phase, which a busy loop reaches late). Null if it did not.
   */
  get destroyedAt(): number | null {
    return this.#destroyedAt
  }

  #destroy(): void {
    this.#destroyedAt ??= performance.now()
    this.#ws.terminate()
  }

  #flush = (): void => {
    while (this.#waiting.length > 0 && this.#ws.bufferedAmount < SOCKET_HIGH_WATER_BYTES) {
      if (this.#ws.readyState !== this.#ws.OPEN) {
        this.#release()
        return
      }
      const text = this.#waiting.shift() as string
      this.#waitingBytes -= Buffer.byteLength(text)
      this.#coalesce()
      // The callback runs once the frame has left for the kernel: room for the next ones.
      this.#ws.send(text, this.#afterWrite)
    }
    if (this.#waiting.length === 0 && this.#deferredClose !== null) {
      const { code, reason } = this.#deferredClose
      this.#deferredClose = null
      this.#ws.close(code, reason)
    }
  }

  /**
   * Frames sent in one turn of the event loop (an event and what it set off: a reply's audio deltas, captions and
   * acknowledgements) leave in one write instead of a system call each, which was most of the socket's cost: the
   * socket stays corked until the turn's end. ws corks and uncorks around each frame itself; corks nest.
   */
  #coalesce(): void {
    if (this.#socket === null || this.#corked) return
    this.#corked = true
    this.#socket.cork()
    process.nextTick(this.#uncork)
  }

  #uncork = (): void => {
    this.#corked = false
    this.#socket?.uncork()
  }

  #afterWrite = (error?: Error): void => {
    if (error === undefined || error === null) this.#flush()
  }

  #startClose(code: number, reason: string): void {
    this.#closing = true
    this.#ws.close(code, reason)
    this.#armGrace()
  }

  /**
   * Destroys the socket if its grace has run out. The grace timer cannot fire while the event loop is busy
   * serving other clients' floods, so the server also calls this between their frames.
   */
  reapIfOverdue(now: number = performance.now()): void {
    if (this.#graceDeadline !== null && now >= this.#graceDeadline) this.#destroy()
  }

  /** ws waits 30 s for the peer's close frame; a client that does not read gets closeGraceMs. */
  #armGrace(): void {
    this.#graceDeadline = performance.now() + this.#limits.closeGraceMs
    clearTimeout(this.#graceTimer)
    this.#graceTimer = setTimeout(() => this.#destroy(), this.#limits.closeGraceMs)
    this.#graceTimer.unref()
  }

  #release(): void {
    this.#waiting = []
    this.#waitingBytes = 0
  }
}
