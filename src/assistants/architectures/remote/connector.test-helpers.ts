// Builders for the connector tests: a scripted service (a real HTTP + `ws` server on loopback, port 0) whose
// answers each test writes frame by frame, and a connector wired to it that records what it sent to Live and
// what it emitted into the evaluator stream. Everything started is stopped after each test.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { CommentaryAppendEvent } from 'openai/resources/live/live'
import { afterEach } from 'vitest'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import type { ObservationEvent } from '../../client/backend/application-backend.ts'
import type { SessionConfigure } from '../../client/service/protocol/index.ts'
import { RemoteClientConnector, type RemoteConnectorOptions } from './connector.ts'
import { RemoteToolObserver } from './tool-observer.ts'

export const TOKEN = 'connector-test-token-0123456789-abcdefgh'

/** How the scripted service answers an upgrade: a plain HTTP status (with headers), or null to accept it. */
export type UpgradeAnswer = { status: number; headers?: Record<string, string> } | null

export interface ScriptedServiceOptions {
  answer?: (request: IncomingMessage, attempt: number) => UpgradeAnswer
  /** false: pings go unanswered (a dead peer for the heartbeat). */
  autoPong?: boolean
}

/** The service side of one connection: every text frame it received, parsed, and a way to answer. */
export class ScriptedPeer {
  readonly received: unknown[] = []
  readonly closed: Promise<number>
  readonly socket: WebSocket
  #read = 0
  #wake: (() => void) | null = null

  constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data: RawData) => {
      this.received.push(JSON.parse(data.toString()))
      this.#wake?.()
    })
    this.closed = new Promise((resolve) =>
      socket.once('close', (code) => {
        resolve(code)
        this.#wake?.()
      }),
    )
  }

  /** The next frame not read yet; rejects when the socket closed first. */
  async next(): Promise<Record<string, unknown>> {
    for (;;) {
      const frame = this.received[this.#read]
      if (frame !== undefined) {
        this.#read += 1
        return frame as Record<string, unknown>
      }
      if (this.socket.readyState >= this.socket.CLOSING)
        throw new Error('socket closed before the next frame')
      await new Promise<void>((resolve) => {
        this.#wake = resolve
      })
      this.#wake = null
    }
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame))
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.socket.send(data, { binary })
  }

  /** Reads the configure and answers ready (with `state` as the service's state when given). */
  async ready(state?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const configure = await this.next()
    this.send(
      state === undefined ? { type: 'session.ready' } : { type: 'session.ready', application_state: state },
    )
    return configure
  }

  /** The service's whole answer to one delegation: handoff, commentary, completion. */
  answer(id: string, text: string, eventId = `event_${id}`): void {
    this.send(
      assistantEvent({ type: 'client_delegation.handoff', task: 't', transcript: '', follow_up: false }, id),
    )
    this.send(liveSend(id, text, eventId))
    this.send(assistantEvent({ type: 'client_delegation.completed', text }, id))
  }

  /** Live events forwarded so far (the `event` of each `live.event`). */
  forwarded(): Record<string, unknown>[] {
    return this.received.flatMap((frame) => {
      const message = frame as { type?: unknown; event?: Record<string, unknown> }
      return message.type === 'live.event' && message.event !== undefined ? [message.event] : []
    })
  }
}

export interface ScriptedService {
  url: string
  /** Every upgrade request's headers, accepted or not. */
  upgrades: IncomingMessage['headers'][]
  /** The next accepted connection. */
  nextPeer(): Promise<ScriptedPeer>
  /** TCP connections still open to this server. */
  openSockets(): number
  close(): Promise<void>
}

export const assistantEvent = (event: Record<string, unknown>, id: string) => ({
  type: 'assistant.event',
  event: { ...event, delegation_id: id, _client_managed: true },
})
export const liveSend = (id: string, content: string, eventId = `event_${id}`) => ({
  type: 'live.send',
  event: { type: 'session.commentary.append', event_id: eventId, delegation_id: id, content },
})
export const created = (id: string, target = 'client') => ({
  type: 'session.delegation.created',
  event_id: `event_created_${id}`,
  delegation: { id, target, object: 'delegation' },
})
export const userSaid = (text: string, startMs = 100, endMs = 900) => ({
  type: 'session.input_transcript.delta',
  event_id: `event_said_${startMs}`,
  delta: text,
  start_ms: startMs,
  end_ms: endMs,
})
export const liveClosed = () => ({ type: 'session.closed', event_id: 'event_closed' })

export function useScriptedServices() {
  const started: { server: Server; wss: WebSocketServer; sockets: Set<Duplex> }[] = []
  const connectors: RemoteClientConnector[] = []
  afterEach(async () => {
    await Promise.all(connectors.splice(0).map((connector) => connector.close()))
    for (const { server, wss, sockets } of started.splice(0)) {
      for (const client of wss.clients) client.terminate()
      for (const socket of sockets) socket.destroy()
      wss.close()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  async function start(options: ScriptedServiceOptions = {}): Promise<ScriptedService> {
    const server = createServer((_request, response) => response.writeHead(404).end())
    const wss = new WebSocketServer({ noServer: true, autoPong: options.autoPong ?? true })
    const sockets = new Set<Duplex>()
    const upgrades: IncomingMessage['headers'][] = []
    const peers: ScriptedPeer[] = []
    let wake: (() => void) | null = null
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgrades.push(request.headers)
      const answer = options.answer?.(request, upgrades.length) ?? null
      if (answer !== null) {
        const headers = Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`)
        socket.end(
          `HTTP/1.1 ${answer.status} Refused\r\n${headers.join('')}Content-Length: 0\r\nConnection: close\r\n\r\n`,
        )
        return
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        peers.push(new ScriptedPeer(ws))
        wake?.()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    started.push({ server, wss, sockets })
    let taken = 0
    return {
      url: `ws://127.0.0.1:${port}/ws/assistant`,
      upgrades,
      async nextPeer() {
        while (peers[taken] === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve
          })
        }
        const peer = peers[taken] as ScriptedPeer
        taken += 1
        return peer
      },
      openSockets: () => sockets.size,
      close: async () => {
        wss.close()
        await new Promise((resolve) => server.close(resolve))
      },
    }
  }

  /** A connector to `service` recording its Live sends and evaluator events; not started yet. */
  function connector(
    service: Pick<ScriptedService, 'url'>,
    overrides: Partial<RemoteConnectorOptions> = {},
  ): RecordingConnector {
    const live: CommentaryAppendEvent[] = []
    const emitted: ObservationEvent[] = []
    const observer = new RemoteToolObserver([], { scenario: true })
    const configure: SessionConfigure = { type: 'session.configure', initial_items: [] }
    const instance = new RemoteClientConnector({
      endpoint: service.url,
      token: TOKEN,
      allowInsecureLoopback: true,
      openAiKeys: {},
      configure: () => configure,
      sendToLive: (event) => {
        live.push(event)
        return true
      },
      emit: (event) => emitted.push(event),
      observer,
      ...overrides,
    })
    connectors.push(instance)
    return { connector: instance, live, emitted, observer }
  }

  /** A started connector and its peer, past configure and ready. */
  async function connected(
    options: ScriptedServiceOptions = {},
    overrides: Partial<RemoteConnectorOptions> = {},
  ): Promise<RecordingConnector & { peer: ScriptedPeer; service: ScriptedService }> {
    const service = await start(options)
    const recording = connector(service, overrides)
    const [, peer] = await Promise.all([
      recording.connector.start(),
      service.nextPeer().then(async (peer) => {
        await peer.ready()
        return peer
      }),
    ])
    return { ...recording, peer, service }
  }

  return { start, connector, connected }
}

export interface RecordingConnector {
  connector: RemoteClientConnector
  live: CommentaryAppendEvent[]
  emitted: ObservationEvent[]
  observer: RemoteToolObserver
}

/** The `error` events a connector emitted. */
export const errorsIn = (emitted: readonly ObservationEvent[]) =>
  emitted.filter((event) => event.type === 'error')

/**
 * Lets the connector process what the service sent (frames arrive on later ticks). The bound only turns a hang
 * into a failure; nothing is asserted about time.
 */
export async function until(condition: () => boolean, rounds = 5_000): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  throw new Error('condition not reached')
}

/** Resolves to the rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}
