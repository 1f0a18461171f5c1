// Test helpers for the offline server: a raw `ws` client that records every frame it receives, with
// deadline-bounded waits (a missing event fails the test with what did arrive, never hangs).
import { afterEach, beforeEach } from 'vitest'
import WebSocket from 'ws'
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import type { OfflineSessionScript } from './script.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from './server.ts'

export type Frame = Record<string, unknown> & { type: string }

const WAIT_DEADLINE_MS = 5_000

export class RawLiveClient {
  readonly frames: string[] = []
  readonly socket: WebSocket
  closeCode: number | null = null
  #waiters = new Set<() => void>()

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data) => {
      this.frames.push(data.toString())
      this.#wake()
    })
    socket.on('close', (code) => {
      this.closeCode = code
      this.#wake()
    })
  }

  static async connect(url: string, token: string | null): Promise<RawLiveClient> {
    const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` }
    const socket = new WebSocket(url, { headers })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused with HTTP ${response.statusCode}`)),
      )
    })
    return new RawLiveClient(socket)
  }

  /** Parsed events (frames that are not JSON are skipped; see `frames` for the raw text). */
  get events(): Frame[] {
    const out: Frame[] = []
    for (const text of this.frames) {
      try {
        out.push(JSON.parse(text) as Frame)
      } catch {
        // malformed frames are kept only in `frames`
      }
    }
    return out
  }

  send(event: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(event))
  }

  sendText(text: string): void {
    this.socket.send(text)
  }

  /** Sends `ms` of 24 kHz PCM16 audio (silence) in 20 ms appends. */
  sendAudio(ms: number, chunkMs = 20): void {
    for (let sent = 0; sent < ms; sent += chunkMs) {
      const bytes = Buffer.alloc(Math.min(chunkMs, ms - sent) * 48)
      this.send({ type: 'session.input_audio.append', audio: bytes.toString('base64') })
    }
  }

  async start(session: Record<string, unknown> = { model: 'gpt-live-1' }): Promise<Frame> {
    this.send({ type: 'session.start', event_id: 'evt_start', session })
    return this.waitFor((event) => event.type === 'session.started')
  }

  /** Resolves with the first event (from the start) matching `predicate`, or fails at the deadline. */
  async waitFor(predicate: (event: Frame) => boolean, what = 'matching event'): Promise<Frame> {
    return this.#until(() => this.events.find(predicate) ?? null, what)
  }

  async waitForClose(): Promise<number> {
    return this.#until(() => this.closeCode, 'socket close')
  }

  close(): void {
    this.socket.terminate()
  }

  async #until<T>(probe: () => T | null, what: string): Promise<T> {
    const deadline = Date.now() + WAIT_DEADLINE_MS
    for (;;) {
      const found = probe()
      if (found !== null) return found
      if (Date.now() > deadline || (this.closeCode !== null && what !== 'socket close')) {
        const seen = this.events.map((event) => event.type).join(', ')
        throw new Error(
          `no ${what} within ${WAIT_DEADLINE_MS} ms (closed: ${this.closeCode}); received: ${seen}`,
        )
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50)
        this.#waiters.add(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  #wake(): void {
    const waiters = [...this.#waiters]
    this.#waiters.clear()
    for (const wake of waiters) wake()
  }
}

/** A tiny behaviour for tests: "book ..." needs the `book_table` tool; anything else is answered directly. */
export const testBehaviour: OfflineBehaviour = {
  inferToolCall: (text) => (text.includes('book') ? { name: 'book_table', arguments: { party: 2 } } : null),
  directAnswer: (text) => `You said ${text.length} characters.`,
  finalAnswer: (output) =>
    output.ok === true ? `Booked table ${String(output.table)}.` : 'That did not work.',
}

export const bookTableTool = {
  type: 'function',
  name: 'book_table',
  description: 'Books a table',
  parameters: { type: 'object', properties: { party: { type: 'integer' } } },
}

export interface OfflineServerHarness {
  /** The server of the running test (a fresh one per test). */
  readonly server: OfflineLiveServer
  /** Registers `script` under a new token on `on` (the test's server by default) and connects a raw client. */
  connect(script?: OfflineSessionScript, on?: OfflineLiveServer, token?: string): Promise<RawLiveClient>
}

/**
 * Starts a fresh offline server before each test of the calling file and, after it, drops every client
 * `connect` opened and closes the server, so no test sees another's sessions.
 */
export function useOfflineLiveServer(): OfflineServerHarness {
  let current: OfflineLiveServer | undefined
  const clients: RawLiveClient[] = []
  beforeEach(async () => {
    current = await startOfflineLiveServer()
  })
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close()
    await current?.close()
    current = undefined
  })
  const harness: OfflineServerHarness = {
    get server() {
      if (current === undefined) throw new Error('useOfflineLiveServer: the server exists only inside a test')
      return current
    },
    async connect(script = { hearing: [] }, on = harness.server, token = `token-${clients.length}`) {
      on.registerSession(token, script)
      const client = await RawLiveClient.connect(on.url, token)
      clients.push(client)
      return client
    },
  }
  return harness
}
