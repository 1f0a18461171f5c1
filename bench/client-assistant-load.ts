// Benchmark: the reference client-delegation service under load, on loopback, with its default limits.
//
// Run (the repository's pinned Node 24 runs TypeScript directly; --expose-gc makes the memory figure steadier):
//   npx node --expose-gc bench/client-assistant-load.ts [--sessions 1000] [--warm-up 1000] [--attempts 50]
//
// 1. Connection limit: `--attempts` upgrades at once; exactly max_connections (8) must open, the rest get 503,
//    and none may hang (an attempt still unsettled after 10 s counts as hanging).
// 2. Pending delegations: on each accepted connection, max_pending_delegations (4) delegations run at once. The
//    backend holds every run until all 8×4 are in flight, so the peak is measured, not assumed; then each answers
//    through the restaurant application (offline backend, a real tool call) and every delegation must complete.
// 3. Memory: `--sessions` sequential sessions (connect, configure, one delegation with a tool call, session.closed),
//    after `--warm-up` sessions of the same kind; RSS and heap are read (after a forced gc) at the start, after the
//    warm-up, at four checkpoints and at the end (the bar: RSS growth under 10 MB). The warm-up is there
//    because V8 grows its young generation once: a one-time RSS step of tens of MB in the first several hundred
//    sessions while the heap stays flat (with --max-semi-space-size=1 the same cold start stays near 10 MB). The
//    warm-up line prints that step so it is not hidden.
// Figures come from this one run; nothing here is asserted by a test.
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { WebSocket } from 'ws'
import type { ApplicationBackend } from '../src/assistants/client/backend/application-backend.ts'
import {
  type ClientAssistantService,
  offlineRestaurantApplication,
  type ServiceApplication,
  startClientAssistantService,
} from '../src/assistants/client/service/index.ts'

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    'warm-up': { type: 'string', default: '1000' },
    attempts: { type: 'string', default: '50' },
  },
})
const SESSIONS = Number(values.sessions)
const WARM_UP = Number(values['warm-up'])
const ATTEMPTS = Number(values.attempts)
if (
  ![SESSIONS, ATTEMPTS].every((n) => Number.isInteger(n) && n > 0) ||
  !(Number.isInteger(WARM_UP) && WARM_UP >= 0)
) {
  throw new Error('usage: client-assistant-load.ts [--sessions N>0] [--warm-up N>=0] [--attempts N>0]')
}
const CHECKPOINT = Math.max(1, Math.floor(SESSIONS / 4))
const HANG_MS = 10_000
const TOKEN = randomBytes(24).toString('hex')
const AUTH = { Authorization: `Bearer ${TOKEN}` }
const REQUEST = 'Is a table for 4 available on August 7 at 7 p.m.?'

type Frame = { type: string; event?: { type?: string } }

/** A peer: its frames in arrival order, and a way to wait for one. */
class Peer {
  readonly frames: Frame[] = []
  readonly closed: Promise<void>
  readonly socket: WebSocket
  #waiters: Array<() => void> = []
  constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame)
      for (const wake of this.#waiters.splice(0)) wake()
    })
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()))
  }
  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame))
  }
  async waitFor(count: (frames: Frame[]) => boolean): Promise<void> {
    while (!count(this.frames)) {
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error('socket closed while waiting')
      await new Promise<void>((resolve) => this.#waiters.push(resolve))
    }
  }
}

type Attempt =
  | { outcome: 'open'; peer: Peer }
  | { outcome: 'refused'; status: number }
  | { outcome: 'hung' | 'error' }

function attempt(url: string): Promise<Attempt> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers: AUTH })
    const guard = setTimeout(() => {
      socket.terminate()
      resolve({ outcome: 'hung' })
    }, HANG_MS)
    socket.once('open', () => {
      clearTimeout(guard)
      resolve({ outcome: 'open', peer: new Peer(socket) })
    })
    socket.once('unexpected-response', (_request, response) => {
      clearTimeout(guard)
      resolve({ outcome: 'refused', status: response.statusCode ?? 0 })
      socket.terminate()
    })
    socket.once('error', () => {
      clearTimeout(guard)
      resolve({ outcome: 'error' })
    })
  })
}

const liveEvent = (event: unknown) => ({ type: 'live.event', event })
let eventNumber = 0
function ask(peer: Peer, delegationId: string, atMs: number): void {
  peer.send(
    liveEvent({
      type: 'session.input_transcript.delta',
      event_id: `event_${++eventNumber}`,
      delta: REQUEST,
      start_ms: atMs,
      end_ms: atMs + 2_000,
    }),
  )
  peer.send(
    liveEvent({ type: 'session.delegation.created', delegation: { id: delegationId, target: 'client' } }),
  )
}
const completions = (frames: Frame[]) =>
  frames.filter(
    (frame) => frame.type === 'assistant.event' && frame.event?.type === 'client_delegation.completed',
  ).length
const errors = (frames: Frame[]) =>
  frames.filter((frame) => frame.type === 'error' || frame.event?.type === 'error').length

/** The restaurant application whose backend first waits until `target` runs are in flight at once. */
function gatedApplication(target: number) {
  let inFlight = 0
  let peak = 0
  let open: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const application: ServiceApplication = {
    tools: offlineRestaurantApplication.tools,
    backend(configure, context): ApplicationBackend {
      const inner = offlineRestaurantApplication.backend(configure, context)
      return {
        async run(handoff, emit, options) {
          inFlight += 1
          peak = Math.max(peak, inFlight)
          if (inFlight >= target) open()
          try {
            await gate
            return await inner.run(handoff, emit, options)
          } finally {
            inFlight -= 1
          }
        },
        close: () => inner.close(),
      }
    },
  }
  return { application, peak: () => peak, open }
}

async function connectionLimit(
  service: ClientAssistantService,
  application: ReturnType<typeof gatedApplication>,
) {
  const started = performance.now()
  const attempts = await Promise.all(Array.from({ length: ATTEMPTS }, () => attempt(service.url)))
  const settledMs = performance.now() - started
  const opened = attempts.flatMap((result) => (result.outcome === 'open' ? [result.peer] : []))
  const refused = attempts.filter((result) => result.outcome === 'refused' && result.status === 503).length
  const hung = attempts.filter((result) => result.outcome === 'hung').length
  const other = ATTEMPTS - opened.length - refused - hung
  console.log(
    `connection limit (max_connections ${service.limits.max_connections}): ${ATTEMPTS} parallel attempts → ` +
      `${opened.length} accepted, ${refused} refused with 503, ${hung} hanging, ${other} other; ` +
      `all settled in ${settledMs.toFixed(0)} ms`,
  )

  const perConnection = service.limits.max_pending_delegations
  const delegationsStarted = performance.now()
  for (const [index, peer] of opened.entries()) {
    peer.send({ type: 'session.configure', initial_items: [] })
    for (let n = 0; n < perConnection; n += 1) ask(peer, `deleg_${index}_${n}`, 1_000 + n * 5_000)
  }
  // Safety valve: should the peak never be reached, release the runs instead of hanging the bench.
  const valve = setTimeout(application.open, HANG_MS)
  await Promise.all(
    opened.map((peer) => peer.waitFor((frames) => completions(frames) + errors(frames) >= perConnection)),
  )
  clearTimeout(valve)
  const done = opened.reduce((sum, peer) => sum + completions(peer.frames), 0)
  const failed = opened.reduce((sum, peer) => sum + errors(peer.frames), 0)
  const commentary = opened.reduce(
    (sum, peer) => sum + peer.frames.filter((f) => f.type === 'live.send').length,
    0,
  )
  console.log(
    `pending delegations (max_pending_delegations ${perConnection}): peak ${application.peak()} running at once ` +
      `over ${opened.length} connections; ${done} completed, ${failed} failed, ${commentary} commentary frames; ` +
      `${(performance.now() - delegationsStarted).toFixed(0)} ms`,
  )
  for (const peer of opened) peer.send(liveEvent({ type: 'session.closed' }))
  await Promise.all(opened.map((peer) => peer.closed))
  while (service.activeConnections > 0) await new Promise((resolve) => setTimeout(resolve, 5))
}

async function oneSession(url: string, index: number): Promise<void> {
  const result = await attempt(url)
  if (result.outcome !== 'open') throw new Error(`session ${index}: upgrade ${result.outcome}`)
  const peer = result.peer
  peer.send({ type: 'session.configure', initial_items: [] })
  ask(peer, `deleg_${index}`, 500)
  await peer.waitFor((frames) => completions(frames) + errors(frames) >= 1)
  if (errors(peer.frames) > 0) throw new Error(`session ${index}: the delegation failed`)
  peer.send(liveEvent({ type: 'session.closed' }))
  await peer.closed
}

function memory() {
  globalThis.gc?.()
  const usage = process.memoryUsage()
  return { rss: usage.rss, heap: usage.heapUsed }
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

async function sequentialSessions() {
  const service = await startClientAssistantService({
    token: TOKEN,
    env: {},
    application: offlineRestaurantApplication,
  })
  try {
    const start = memory()
    for (let index = 0; index < WARM_UP; index += 1) await oneSession(service.url, index)
    const before = memory()
    console.log(
      `warm-up: ${WARM_UP} sessions, RSS ${mb(start.rss)} → ${mb(before.rss)}, heap ${mb(start.heap)} → ${mb(before.heap)} ` +
        '(the one-time young-generation growth)',
    )
    const checkpoints: string[] = []
    const started = performance.now()
    for (let index = 0; index < SESSIONS; index += 1) {
      await oneSession(service.url, WARM_UP + index)
      if ((index + 1) % CHECKPOINT === 0) {
        const now = memory()
        checkpoints.push(`${index + 1}: RSS ${mb(now.rss)}, heap ${mb(now.heap)}`)
      }
    }
    const elapsedMs = performance.now() - started
    while (service.activeConnections > 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const after = memory()
    console.log(`checkpoints: ${checkpoints.join('; ')}`)
    console.log(
      `memory over ${SESSIONS} sequential sessions (gc ${globalThis.gc ? 'forced before each reading' : 'not exposed, pass --expose-gc'}): ` +
        `RSS ${mb(before.rss)} → ${mb(after.rss)} (growth ${mb(after.rss - before.rss)}), ` +
        `heap ${mb(before.heap)} → ${mb(after.heap)} (growth ${mb(after.heap - before.heap)}); ` +
        `${(SESSIONS / (elapsedMs / 1000)).toFixed(0)} sessions/s, ${(elapsedMs / SESSIONS).toFixed(2)} ms each`,
    )
  } finally {
    await service.close()
  }
}

const gated = gatedApplication(8 * 4)
const limited = await startClientAssistantService({ token: TOKEN, env: {}, application: gated.application })
try {
  await connectionLimit(limited, gated)
} finally {
  await limited.close()
}
await sequentialSessions()
