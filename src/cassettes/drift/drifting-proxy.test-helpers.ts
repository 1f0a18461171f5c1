// A loopback GPT-Live front that makes the service drift, for drift tests: it relays every session to the
// dress-rehearsal server frame by frame (a real `ws` server and client), holding each server event back by
// `delayMs` (the service got slower) and, when asked, adding a field the offline server does not model to
// session.started and an event type it never sends right after it (the service's protocol grew).
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import WebSocket, { WebSocketServer } from 'ws'

export interface DriftingProxyOptions {
  /** ws://127.0.0.1:PORT of the server behind it (the rehearsal server's origin). */
  target: string
  delayMs: number
  /** Adds `session.turn_detection` to session.started and sends a `session.heartbeat` event after it. */
  extendProtocol: boolean
}

export interface DriftingProxy {
  /** http://127.0.0.1:PORT/v1, for OPENAI_LIVE_ENDPOINT. */
  baseURL: string
  close(): Promise<void>
}

/** Close codes a peer may send on (1005/1006 only describe how a socket ended). */
const sendable = (code: number) =>
  (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 4999) ? code : 1000

export async function startDriftingProxy(options: DriftingProxyOptions): Promise<DriftingProxy> {
  const sockets = new Set<WebSocket>()
  const wss = new WebSocketServer({ noServer: true })
  const server = createServer((_request, response) => {
    response.writeHead(404).end()
  })
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    wss.handleUpgrade(request, socket, head, (client) => {
      const headers: Record<string, string> = {}
      if (request.headers.authorization !== undefined) headers.authorization = request.headers.authorization
      const upstream = new WebSocket(`${options.target}${request.url ?? ''}`, { headers })
      sockets.add(client)
      sockets.add(upstream)
      const pending: WebSocket.RawData[] = []
      client.on('message', (data) => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data.toString())
        else pending.push(data)
      })
      upstream.on('open', () => {
        for (const data of pending.splice(0)) upstream.send(data.toString())
      })
      const toClient = (text: string) =>
        setTimeout(() => {
          if (client.readyState === WebSocket.OPEN) client.send(text)
        }, options.delayMs)
      upstream.on('message', (data) => {
        const text = data.toString()
        if (!options.extendProtocol || !text.includes('"session.started"')) return void toClient(text)
        const event = JSON.parse(text)
        event.session = { ...event.session, turn_detection: { type: 'semantic_vad' } }
        toClient(JSON.stringify(event))
        toClient(JSON.stringify({ type: 'session.heartbeat', event_id: 'proxy_heartbeat_1' }))
      })
      upstream.on('close', (code, reason) =>
        setTimeout(() => client.close(sendable(code), reason.toString()), options.delayMs),
      )
      client.on('close', (code, reason) => upstream.close(sendable(code), reason.toString()))
      upstream.on('error', () => client.terminate())
      client.on('error', () => upstream.terminate())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    async close() {
      for (const socket of sockets) socket.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
