// Test support: a minimal GPT-Live peer on loopback that answers the handshake and close, records every frame
// the client sends, and pushes whatever server events a test scripts. The offline server only ever emits
// well-formed completed function calls; this peer lets tests send the deliveries the service may also send
// (non-completed statuses, repeated call_ids) through the real LiveWS client.
import type { AddressInfo } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'

export interface ScriptedLivePeer {
  /** The `baseURL` for the openai client (http://127.0.0.1:PORT/v1). */
  baseURL: string
  /** Parsed client frames in arrival order. */
  received: Array<Record<string, unknown>>
  /** Sends one server event to the connected client (an `event_id` is added). */
  push(event: Record<string, unknown>): void
  /** Resolves when a client frame matching `predicate` has arrived. */
  receivedFrame(predicate: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>
  close(): Promise<void>
}

export async function startScriptedLivePeer(): Promise<ScriptedLivePeer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const received: Array<Record<string, unknown>> = []
  const watchers = new Set<() => void>()
  let socket: WebSocket | null = null
  let nextId = 0
  const send = (event: Record<string, unknown>) => {
    nextId += 1
    socket?.send(JSON.stringify({ event_id: `event_peer_${nextId}`, ...event }))
  }
  wss.on('connection', (ws) => {
    socket = ws
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>
      received.push(frame)
      for (const watch of watchers) watch()
      const session = { id: 'live_peer', expires_at: 1, model: 'gpt-live-1', status: 'active' }
      if (frame.type === 'session.start') {
        send({ type: 'session.started', client_event_id: frame.event_id, session })
      } else if (frame.type === 'session.close') {
        const closed = { type: 'session.closed', reason: 'close_requested', usage: { seconds: 0 }, session }
        send({ ...closed, client_event_id: frame.event_id })
        ws.close(1000)
      }
    })
  })
  const { port } = wss.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    push: send,
    receivedFrame(predicate) {
      return new Promise((resolve) => {
        const check = () => {
          const found = received.find(predicate)
          if (found === undefined) return false
          watchers.delete(watch)
          resolve(found)
          return true
        }
        const watch = () => void check()
        if (!check()) watchers.add(watch)
      })
    },
    close() {
      for (const client of wss.clients) client.terminate()
      return new Promise((resolve) => wss.close(() => resolve()))
    },
  }
}
