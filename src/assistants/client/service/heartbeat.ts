// WebSocket ping heartbeat (contract §2: every 20 s; a peer that has not answered within half the interval
// is dead). A dead peer's socket is terminated, which ends its session like any other disconnect.
import type { WebSocket } from 'ws'

export const HEARTBEAT_INTERVAL_MS = 20_000

/** Starts pinging `socket`; returns the function that stops it (also called by the socket's close). */
export function startHeartbeat(socket: WebSocket, intervalMs: number = HEARTBEAT_INTERVAL_MS): () => void {
  let answered = true
  let deadline: NodeJS.Timeout | undefined
  const onPong = () => {
    answered = true
  }
  socket.on('pong', onPong)
  const ticker = setInterval(() => {
    answered = false
    socket.ping()
    clearTimeout(deadline)
    deadline = setTimeout(() => {
      if (!answered) socket.terminate()
    }, intervalMs / 2)
  }, intervalMs)
  const stop = () => {
    clearInterval(ticker)
    clearTimeout(deadline)
    socket.off('pong', onPong)
  }
  socket.once('close', stop)
  return stop
}
