// Bounds the TCP connections of an HTTP server that have not (yet) become an accepted WebSocket: a peer that
// connects and sends nothing, or only plain HTTP, or an upgrade that is refused. Without a bound, thousands of
// such sockets hold a file descriptor each until the peer goes away, and then /health and real upgrades fail.
// Two rules, shared by the reference client-delegation service and the offline GPT-Live server:
// - deadline: a socket is closed when it has neither been adopted (its upgrade accepted) nor sent a complete
//   HTTP request for `upgradeTimeoutMs` (a request re-arms it, so a keep-alive health poller is not cut off);
// - cap: at most `maxPending` such sockets at once. A new connection beyond the cap closes the OLDEST pending
//   socket rather than being refused itself, so a flood of silent sockets cannot shut out /health or a real
//   client, which send their request at once; the flood only shortens its own sockets' lives.
// An adopted socket is the WebSocket layer's from then on (its own limits, heartbeat and connection count).
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'

export interface PendingConnectionLimits {
  /** How long a socket may stay connected without an accepted upgrade or a complete request. */
  upgradeTimeoutMs: number
  /** Sockets connected without an accepted upgrade, at most; the oldest is closed to admit a new one. */
  maxPending: number
}

export interface PendingConnectionStats {
  /** Sockets connected right now that are not an accepted WebSocket. */
  pending: number
  /** Sockets closed because their deadline passed. */
  timedOut: number
  /** Sockets closed to make room under the cap. */
  evicted: number
}

export interface PendingConnections {
  /** The upgrade of `socket` was accepted: it is no longer pending. */
  adopt(socket: Duplex): void
  stats(): PendingConnectionStats
}

/** Starts guarding every connection `http` accepts from now on. */
export function guardPendingConnections(http: Server, limits: PendingConnectionLimits): PendingConnections {
  // Insertion order is age order: the first key is the socket that has waited longest.
  const pending = new Map<Socket, NodeJS.Timeout>()
  let timedOut = 0
  let evicted = 0

  const arm = (socket: Socket) => {
    clearTimeout(pending.get(socket))
    pending.delete(socket)
    const timer = setTimeout(() => {
      if (!pending.has(socket)) return
      timedOut += 1
      release(socket)
      socket.destroy()
    }, limits.upgradeTimeoutMs)
    timer.unref()
    pending.set(socket, timer)
  }
  const release = (socket: Socket) => {
    clearTimeout(pending.get(socket))
    pending.delete(socket)
  }

  http.on('connection', (socket: Socket) => {
    while (pending.size >= limits.maxPending) {
      const oldest = pending.keys().next().value
      if (oldest === undefined) break
      evicted += 1
      release(oldest)
      oldest.destroy()
    }
    arm(socket)
    socket.once('close', () => release(socket))
  })
  // A complete plain request is activity: the socket becomes the newest and gets a fresh deadline.
  http.on('request', (request) => {
    if (pending.has(request.socket as Socket)) arm(request.socket as Socket)
  })

  return {
    adopt(socket) {
      release(socket as Socket)
    },
    stats() {
      return { pending: pending.size, timedOut, evicted }
    },
  }
}
