// Builders for the service tests: a recording application (counts every factory call, backend run, cancel
// and close), a peer client on a real `ws` socket that validates every frame it receives against our own
// contract schemas, raw upgrade requests for the handshake checks, and a harness that stops what it started.
import { connect as connectTcp } from 'node:net'
import { afterEach } from 'vitest'
import { WebSocket } from 'ws'
import type {
  ApplicationToolCallback,
  DelegationHandoff,
  EmitObservation,
} from '../backend/application-backend.ts'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import type { ServiceApplication } from './application.ts'
import {
  type HistoryItem,
  type ServiceMessage,
  type SessionConfigure,
  serviceMessageSchema,
} from './protocol/index.ts'
import {
  type ClientAssistantService,
  type ClientAssistantServiceOptions,
  startClientAssistantService,
} from './service.ts'

export const TOKEN = 'test-token-0123456789-abcdefghijklmnop'
export const AUTH = { Authorization: `Bearer ${TOKEN}` }

export interface BackendRunContext {
  emit: EmitObservation
  callTool: ApplicationToolCallback
  signal: AbortSignal
  configure: SessionConfigure
}
export type ScriptedRun = (handoff: DelegationHandoff, context: BackendRunContext) => Promise<string>

export interface RecordingApplication extends ServiceApplication {
  toolsBuilt: number
  backendsBuilt: number
  configures: SessionConfigure[]
  handoffs: DelegationHandoff[]
  cancelled: number
  closed: number
}

export const ANSWER = 'A table for 4 is available on 2026-08-07 at 19:00.'

/** A restaurant application whose backend runs `run` (default: answers ANSWER) and records everything. */
export function recordingApplication(run: ScriptedRun = async () => ANSWER): RecordingApplication {
  const application: RecordingApplication = {
    toolsBuilt: 0,
    backendsBuilt: 0,
    configures: [],
    handoffs: [],
    cancelled: 0,
    closed: 0,
    tools(configure) {
      application.toolsBuilt += 1
      return new RestaurantTools({ initialState: configure.application_state ?? {} })
    },
    backend(configure, { callTool }) {
      application.backendsBuilt += 1
      application.configures.push(structuredClone(configure))
      return {
        run(handoff, emit, options = {}) {
          application.handoffs.push(structuredClone(handoff))
          const signal = options.signal ?? new AbortController().signal
          signal.addEventListener('abort', () => {
            application.cancelled += 1
          })
          return run(handoff, { emit, callTool, signal, configure })
        },
        async close() {
          application.closed += 1
        },
      }
    },
  }
  return application
}

/** A backend run that never answers until it is cancelled. */
export const hangingRun: ScriptedRun = (_handoff, { signal }) =>
  new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))

/** A peer on a real WebSocket; every received frame must parse as a ServiceMessage. */
export class PeerClient {
  readonly frames: ServiceMessage[] = []
  /** Resolves with the close code once the socket closed. */
  readonly closed: Promise<number>
  readonly socket: WebSocket
  #read = 0
  #wake: (() => void) | null = null
  #problem: Error | null = null

  constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data) => {
      const parsed = serviceMessageSchema.safeParse(JSON.parse(data.toString()))
      if (parsed.success) this.frames.push(parsed.data)
      else this.#problem = new Error(`service sent a frame outside the contract: ${parsed.error.message}`)
      this.#wake?.()
    })
    this.closed = new Promise((resolve) => {
      socket.once('close', (code) => {
        resolve(code)
        this.#wake?.()
      })
    })
  }

  static connect(url: string, headers: Record<string, string> = AUTH): Promise<PeerClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers })
      socket.once('open', () => resolve(new PeerClient(socket)))
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused with ${response.statusCode}`)),
      )
      socket.once('error', reject)
    })
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame))
  }

  /** The next frame not read yet; rejects when the socket closes first. */
  async next(): Promise<ServiceMessage> {
    for (;;) {
      if (this.#problem !== null) throw this.#problem
      const frame = this.frames[this.#read]
      if (frame !== undefined) {
        this.#read += 1
        return frame
      }
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error('socket closed before the next frame')
      await new Promise<void>((resolve) => {
        this.#wake = resolve
      })
      this.#wake = null
    }
  }

  /** Reads frames until one satisfies `accept`, returning it. */
  async until(accept: (frame: ServiceMessage) => boolean): Promise<ServiceMessage> {
    for (;;) {
      const frame = await this.next()
      if (accept(frame)) return frame
    }
  }

  /** Reads the session's terminal error envelope (skipping anything before it). */
  async stopCode(): Promise<string> {
    const frame = await this.until((candidate) => candidate.type === 'error')
    return frame.type === 'error' ? frame.error.code : 'none'
  }

  async configure(extra: Partial<SessionConfigure> = {}): Promise<ServiceMessage> {
    this.send({ type: 'session.configure', initial_items: [], ...extra })
    return this.next()
  }

  delegate(id: string): void {
    this.send(liveEvent(delegationCreated(id)))
  }

  close(): Promise<number> {
    this.socket.close()
    return this.closed
  }
}

export const liveEvent = (event: unknown) => ({ type: 'live.event', event })
export const delegationCreated = (id: string, target = 'client') => ({
  type: 'session.delegation.created',
  event_id: `event_delegation_${id}`,
  offset_ms: 2_000,
  delegation: { id, target, object: 'delegation' },
})
let deltas = 0
export const userSaid = (text: string, startMs: number, endMs: number) => ({
  type: 'session.input_transcript.delta',
  event_id: `event_delta_${++deltas}`,
  delta: text,
  start_ms: startMs,
  end_ms: endMs,
})
export const historyItem = (role: 'user' | 'assistant', text: string): HistoryItem => ({
  type: 'message',
  role,
  content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
})

/** Sends an upgrade request with exactly these header lines and resolves with the HTTP status of the answer. */
export function rawUpgradeStatus(
  port: number,
  headerLines: readonly string[],
  path = '/ws/assistant',
  handshakeLines: readonly string[] = [
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  ],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)
      if (status !== null) {
        resolve(Number(status[1]))
        socket.destroy()
      }
    })
    socket.on('error', reject)
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        ...handshakeLines,
        ...headerLines,
        '',
        '',
      ].join('\r\n'),
    )
  })
}

/** Starts services and peers for one test and stops them after it. */
export function useServiceHarness() {
  const services: ClientAssistantService[] = []
  const peers: PeerClient[] = []
  afterEach(async () => {
    for (const peer of peers.splice(0)) peer.socket.terminate()
    await Promise.all(services.splice(0).map((service) => service.close()))
  })
  return {
    async start(
      options: Partial<ClientAssistantServiceOptions> & { application: ServiceApplication },
    ): Promise<ClientAssistantService> {
      const service = await startClientAssistantService({ token: TOKEN, env: {}, ...options })
      services.push(service)
      return service
    },
    async connect(service: ClientAssistantService, headers?: Record<string, string>): Promise<PeerClient> {
      const peer = await PeerClient.connect(service.url, headers)
      peers.push(peer)
      return peer
    },
  }
}
