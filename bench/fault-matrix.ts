// Fault matrix (issue 23 points 3 and 4): both loopback servers against idle sockets and clients that never read.
//
// Run (pinned Node 24 runs TypeScript directly; --expose-gc is passed to the server process for steadier RSS):
//   npx node bench/fault-matrix.ts [--idle 1000] [--non-readers 20] [--server-script bench/fault-matrix-server.ts]
//
// The servers run in a child process (fault-matrix-server.ts) so RSS and descriptors are theirs alone; this
// process holds the clients. Bounded and self-stopping: every wait has a deadline, the child exits with us.
// 1. Idle flood, default limits: `--idle` silent sockets at each server. Descriptors in use and sockets kept
//    under the flood; /health and an authenticated session of each server while it lasts; how long until the
//    servers have closed the silent sockets they kept (the 10 s upgrade deadline).
// 2. Idle sockets held (caps raised, long deadline): RSS per idle socket, after a gc.
// 3. Non-readers, default limits (8 MiB bound): `--non-readers` clients start a session with a ~600 KB config,
//    stop reading (socket paused) and ask for ~36 MB of echoes each. Peak RSS over the baseline per non-reader
//    (the kernel's high-water mark), the peak the server counted as queued, the slowest time from passing the
//    bound to the connection being gone, and the close code a client reads when it resumes after the server
//    let go.
// 4. One non-reader at a time on a fresh server: the close code a client reads when it resumes 100 ms after its
//    close started, and the slowest close when the process is not busy serving other floods.
// Figures come from this one run; nothing here is asserted by a test.
import { type ChildProcess, fork } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { WebSocket } from 'ws'

const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '1000' },
    'non-readers': { type: 'string', default: '20' },
    'server-script': { type: 'string' },
  },
})
const IDLE = Number(values.idle)
const NON_READERS = Number(values['non-readers'])
if (![IDLE, NON_READERS].every((n) => Number.isInteger(n) && n > 0 && n <= 10_000)) {
  throw new Error('usage: fault-matrix.ts [--idle 1..10000] [--non-readers 1..10000]')
}
const SERVER_SCRIPT =
  values['server-script'] ?? fileURLToPath(new URL('./fault-matrix-server.ts', import.meta.url))
const TOKEN = 'fault-matrix-bench-token-0123456789abcdef'
const MIB = 1024 * 1024
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Probe {
  rssBytes: number
  descriptors: number
  offline: {
    openConnections: number
    bufferedBytes: number
    peakBufferedBytes: number
    sendBufferClosures: number
    slowestSendBufferCloseMs?: number | null
    pendingConnections?: number
    pendingTimedOut?: number
    pendingEvicted?: number
  }
  service: { active: number; pending?: number; timedOut?: number; evicted?: number }
  peakRssBytes: number
}
interface Ports {
  offlineURL: string
  offlinePort: number
  servicePort: number
  healthURL: string
  serviceURL: string
}

class ServerProcess {
  readonly #child: ChildProcess
  readonly #replies: Array<(message: unknown) => void> = []
  constructor(child: ChildProcess) {
    this.#child = child
    child.on('message', (message) => this.#replies.shift()?.(message))
  }
  static async start(limits: object): Promise<{ server: ServerProcess; ports: Ports }> {
    const child = fork(SERVER_SCRIPT, [JSON.stringify(limits)], { execArgv: ['--expose-gc'] })
    const server = new ServerProcess(child)
    const ports = (await server.#next(30_000)) as Ports
    return { server, ports }
  }
  probe(): Promise<Probe> {
    // Generous: under a flood on a shared 2-core machine the server process answers late, not never.
    const reply = this.#next(60_000) as Promise<Probe>
    this.#child.send({ probe: true })
    return reply
  }
  #next(deadlineMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('bench: server process did not answer')), deadlineMs)
      this.#replies.push((message) => {
        clearTimeout(timer)
        resolve(message)
      })
    })
  }
  stop(): void {
    this.#child.disconnect()
  }
}

/** Silent sockets, opened 50 at a time; each records when the server closed it. */
async function openIdle(port: number, count: number): Promise<{ sockets: Socket[]; closed: () => number }> {
  const sockets: Socket[] = []
  let closed = 0
  for (let start = 0; start < count; start += 50) {
    const batch = Array.from({ length: Math.min(50, count - start) }, () => {
      const socket = connect(port, '127.0.0.1')
      socket.on('data', () => {})
      socket.on('error', () => {})
      socket.once('close', () => {
        closed += 1
      })
      sockets.push(socket)
      return new Promise<void>((resolve) => {
        socket.once('connect', () => resolve())
        socket.once('error', () => resolve())
      })
    })
    await Promise.all(batch)
  }
  return { sockets, closed: () => closed }
}

/** Resolves with the first frame matching `want`, or rejects after `deadlineMs`. */
function firstFrame(ws: WebSocket, want: (frame: { type?: string }) => boolean, deadlineMs = 10_000) {
  return new Promise<{ type?: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench: no expected frame')), deadlineMs)
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type?: string }
      if (want(frame)) {
        clearTimeout(timer)
        resolve(frame)
      }
    })
  })
}

function openSocket(url: string, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)))
  })
}

async function serviceSessionWorks(url: string): Promise<boolean> {
  const ws = await openSocket(url, TOKEN)
  const ready = firstFrame(ws, (frame) => frame.type === 'session.ready')
  ws.send(JSON.stringify({ type: 'session.configure', initial_items: [] }))
  await ready
  ws.terminate()
  return true
}

async function offlineSessionWorks(
  url: string,
  config: object = { model: 'gpt-live-1' },
): Promise<WebSocket> {
  const ws = await openSocket(url, `bench-${Math.random()}`)
  const started = firstFrame(ws, (frame) => frame.type === 'session.started')
  ws.send(JSON.stringify({ type: 'session.start', event_id: 'evt_start', session: config }))
  await started
  return ws
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T | Error }> {
  const begin = performance.now()
  const value = await work().catch((error: unknown) => error as Error)
  return { ms: performance.now() - begin, value }
}
const outcome = (result: { ms: number; value: unknown }) =>
  result.value instanceof Error ? `FAILED (${result.value.message})` : `ok in ${result.ms.toFixed(0)} ms`

async function idleFlood(): Promise<void> {
  const { server, ports } = await ServerProcess.start({})
  try {
    const before = await server.probe()
    const offlineIdle = await openIdle(ports.offlinePort, IDLE)
    const serviceIdle = await openIdle(ports.servicePort, IDLE)
    const floodEnd = performance.now()
    await sleep(200)
    const under = await server.probe()
    const health = await timed(async () => {
      const response = await fetch(ports.healthURL)
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`)
    })
    const serviceSession = await timed(() => serviceSessionWorks(ports.serviceURL))
    const offlineSession = await timed(async () => (await offlineSessionWorks(ports.offlineURL)).terminate())
    let drained = await server.probe()
    // Without the counters (an older server) this waits the whole 30 s and says so below.
    while ((drained.offline.pendingConnections ?? 1) + (drained.service.pending ?? 1) > 0) {
      if (performance.now() - floodEnd > 30_000) break
      await sleep(100)
      drained = await server.probe()
    }
    const drainMs = performance.now() - floodEnd
    const heldByClients = IDLE * 2 - offlineIdle.closed() - serviceIdle.closed()
    console.log(`\n1. idle flood, default limits: ${IDLE} silent sockets at each server`)
    console.log(
      `   descriptors in the server process: ${before.descriptors} before, ${under.descriptors} under the flood, ${drained.descriptors} after`,
    )
    console.log(
      `   kept by the offline server: ${under.offline.pendingConnections ?? 'n/a'} (closed for the cap: ${under.offline.pendingEvicted ?? 'n/a'}); by the service: ${under.service.pending ?? 'n/a'} (closed for the cap: ${under.service.evicted ?? 'n/a'})`,
    )
    console.log(
      `   during the flood: GET /health ${outcome(health)}; service session ${outcome(serviceSession)}; offline session ${outcome(offlineSession)}`,
    )
    console.log(
      `   every kept silent socket closed ${(drainMs / 1000).toFixed(1)} s after the flood (upgrade deadline 10 s; timed out: offline ${drained.offline.pendingTimedOut ?? 'n/a'}, service ${drained.service.timedOut ?? 'n/a'}); still open client-side: ${heldByClients}`,
    )
    for (const socket of [...offlineIdle.sockets, ...serviceIdle.sockets]) socket.destroy()
  } finally {
    server.stop()
  }
}

async function idleHeld(): Promise<void> {
  const raised = { maxPendingConnections: IDLE * 3, upgradeTimeoutMs: 600_000 }
  const { server, ports } = await ServerProcess.start({
    offline: raised,
    service: { max_unauthenticated_connections: IDLE * 3, upgrade_timeout: 600 },
  })
  try {
    const rows: string[] = []
    for (const [name, port] of [
      ['offline server', ports.offlinePort],
      ['client service', ports.servicePort],
    ] as const) {
      const before = await server.probe()
      const idle = await openIdle(port, IDLE)
      await sleep(300)
      const after = await server.probe()
      rows.push(
        `   ${name}: RSS ${mib(before.rssBytes)} -> ${mib(after.rssBytes)}, ${((after.rssBytes - before.rssBytes) / IDLE / 1024).toFixed(1)} KiB per idle socket; descriptors ${before.descriptors} -> ${after.descriptors}`,
      )
      for (const socket of idle.sockets) socket.destroy()
      await sleep(300)
    }
    console.log(`\n2. idle sockets held (cap ${IDLE * 3}, deadline 600 s): ${IDLE} at each server in turn`)
    for (const row of rows) console.log(row)
  } finally {
    server.stop()
  }
}

const BIG_CONFIG = {
  model: 'gpt-live-1',
  delegation: {
    type: 'responses',
    responses: {
      model: 'm',
      tools: [
        {
          type: 'function',
          name: 'book_table',
          description: 'd'.repeat(600_000),
          parameters: { type: 'object', properties: { party: { type: 'integer' } } },
        },
      ],
    },
  },
}

interface NonReader {
  ws: WebSocket
  socket: Socket
  code: Promise<number>
}

/** A started session with the ~600 KB config whose client stops reading and asks for 60 echoes of it. */
async function nonReader(url: string): Promise<NonReader> {
  const ws = await offlineSessionWorks(url, BIG_CONFIG)
  const code = new Promise<number>((resolve) => ws.once('close', (closeCode) => resolve(closeCode)))
  const socket = (ws as unknown as { _socket: Socket })._socket
  socket.pause()
  return { ws, socket, code }
}
function flood(client: NonReader): void {
  for (let i = 0; i < 60; i++) {
    const update = {
      type: 'session.update',
      event_id: `u${i}`,
      session: { delegation: { type: 'responses' } },
    }
    client.ws.send(JSON.stringify(update))
  }
}
const codeWithin = (client: NonReader, ms: number) => Promise.race([client.code, sleep(ms).then(() => -1)])
function tally(codes: number[]): string {
  const counts = new Map<number, number>()
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1)
  return [...counts].map(([code, n]) => `${code === -1 ? 'none in 10 s' : code} x${n}`).join(', ')
}

async function nonReaders(): Promise<void> {
  const { server, ports } = await ServerProcess.start({})
  try {
    const before = await server.probe()
    const clients: NonReader[] = []
    for (let i = 0; i < NON_READERS; i++) clients.push(await nonReader(ports.offlineURL))
    const started = performance.now()
    for (const client of clients) flood(client)
    let probe = await server.probe()
    while (probe.offline.openConnections > 0 && performance.now() - started < 120_000) {
      await sleep(50)
      probe = await server.probe()
    }
    const wallMs = performance.now() - started
    for (const { socket } of clients) socket.resume()
    const neverRead = await Promise.all(clients.map((client) => codeWithin(client, 10_000)))
    const after = await server.probe()
    const slowest = probe.offline.slowestSendBufferCloseMs

    console.log(
      `\n3. non-readers, default limits (8 MiB bound, 1 s close grace): ${NON_READERS} clients, ~36 MB asked each`,
    )
    console.log(
      `   RSS ${mib(before.rssBytes)} before, peak ${mib(after.peakRssBytes)} (kernel high-water mark), ${mib(after.rssBytes)} after: ${mib((after.peakRssBytes - before.rssBytes) / NON_READERS)} per non-reader at the peak`,
    )
    console.log(
      `   peak queued for one client (server count): ${mib(probe.offline.peakBufferedBytes)}; send-buffer closes ${probe.offline.sendBufferClosures}; all ${NON_READERS} gone ${(wallMs / 1000).toFixed(1)} s after the flood began`,
    )
    console.log(
      `   slowest close (bound passed -> socket destroyed, while the other floods are served): ${slowest === null || slowest === undefined ? 'n/a' : `${slowest.toFixed(0)} ms`}`,
    )
    console.log(`   close codes read after resuming once the server had let go: ${tally(neverRead)}`)
  } finally {
    server.stop()
  }
}

/** One non-reader at a time on a fresh server, each reading again 100 ms after its close started. */
async function promptResumers(): Promise<void> {
  const { server, ports } = await ServerProcess.start({})
  try {
    const count = Math.min(5, NON_READERS)
    const promptCodes: number[] = []
    for (let i = 0; i < count; i++) {
      const client = await nonReader(ports.offlineURL)
      const closuresBefore = (await server.probe()).offline.sendBufferClosures
      flood(client)
      const deadline = performance.now() + 30_000
      while (
        (await server.probe()).offline.sendBufferClosures === closuresBefore &&
        performance.now() < deadline
      ) {
        await sleep(20)
      }
      await sleep(100)
      client.socket.resume()
      promptCodes.push(await codeWithin(client, 10_000))
    }
    // A last one that never reads again: its close runs the whole grace.
    const last = await nonReader(ports.offlineURL)
    flood(last)
    let probe = await server.probe()
    const deadline = performance.now() + 30_000
    while (probe.offline.openConnections > 0 && performance.now() < deadline) {
      await sleep(50)
      probe = await server.probe()
    }
    last.ws.terminate()
    const slowest = probe.offline.slowestSendBufferCloseMs
    console.log(
      `\n4. non-readers one at a time (${count} resuming 100 ms after their close started, then one that never does)`,
    )
    console.log(`   close codes read: ${tally(promptCodes)}`)
    console.log(
      `   slowest close (bound passed -> socket destroyed): ${slowest === null || slowest === undefined ? 'n/a' : `${slowest.toFixed(0)} ms`}`,
    )
  } finally {
    server.stop()
  }
}

console.log(`fault matrix: node ${process.version}, ${IDLE} idle sockets, ${NON_READERS} non-readers`)
await idleFlood()
await idleHeld()
await nonReaders()
await promptResumers()
