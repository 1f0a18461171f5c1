// Socket teardown, split out of session.ts: remembers when LiveWS reported the socket closed and, once the session
// has its outcome, waits a bounded grace for that before terminating the socket outright.
/** How long we wait for the socket itself to finish closing once the session has its outcome. */
export const SOCKET_CLOSE_GRACE_MS = 2_000

export class SocketTeardown {
  readonly #closed: Promise<void>
  #markClosed!: () => void

  constructor() {
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve
    })
  }

  /** The socket reported its close; later waits return at once. */
  markClosed(): void {
    this.#markClosed()
  }

  /** Waits up to `ms` for the close, then calls `terminate` if it has not come. */
  async closedWithin(ms: number, terminate: () => void): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), ms)
    })
    const timedOut = await Promise.race([this.#closed.then(() => false), expired])
    clearTimeout(timer)
    // A peer that ignores the closing handshake must not keep the process (or a test) alive.
    if (timedOut) terminate()
  }
}
