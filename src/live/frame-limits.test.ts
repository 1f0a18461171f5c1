// A misbehaving GPT-Live server (a plain ws server here) cannot crash the harness: a frame nested ten thousand
// deep or larger than the harness reads becomes the session's one failure, kind malformed_event, at the stage
// it arrived in, and never "Maximum call stack size exceeded".
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type WebSocket, WebSocketServer } from 'ws'
import { LiveSessionError } from './errors.ts'
import { MAX_SERVER_EVENT_DEPTH, MAX_SERVER_FRAME_BYTES } from './frame-limits.ts'
import { nestsDeeperThan } from './json-depth.ts'
import type { LiveSessionFailed } from './outcome.ts'
import { LiveSession } from './session.ts'

const STARTED = JSON.stringify({
  type: 'session.started',
  event_id: 'e1',
  session: { id: 'live_bad', expires_at: 4_102_444_800, model: 'gpt-live-1', status: 'active' },
})

const deeplyNested = (depth: number, type: string) =>
  `{"type":"${type}","event_id":"e2","session":{"id":"x"},"payload":${'['.repeat(depth)}${']'.repeat(depth)}}`

const servers: WebSocketServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((wss) => new Promise((resolve) => wss.close(resolve))))
})

/** A server that answers session.start with `onStart(socket)`. */
async function misbehavingServer(onStart: (socket: WebSocket) => void): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(wss)
  await new Promise((resolve) => wss.once('listening', resolve))
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      if (String(data).includes('"session.start"')) onStart(socket)
    })
  })
  const { port } = wss.address() as AddressInfo
  return `http://127.0.0.1:${port}/v1`
}

async function failureOf(baseURL: string, afterStart = false): Promise<LiveSessionError> {
  const session = new LiveSession({
    apiKey: 'k',
    baseURL,
    allowInsecureLoopback: true,
    startTimeoutMs: 5_000,
  })
  const starting = session.start({ model: 'gpt-live-1' })
  if (afterStart) await starting
  else await starting.catch(() => undefined)
  const outcome = await session.outcome
  await session.dispose()
  expect(outcome.type).toBe('failed')
  const { error } = outcome as LiveSessionFailed
  expect(error).toBeInstanceOf(LiveSessionError)
  expect(error.message).not.toMatch(/call stack/i)
  return error
}

describe('frames from a misbehaving server', () => {
  it('a session.started nested 10,000 deep fails the start as a malformed event', async () => {
    const baseURL = await misbehavingServer((socket) => socket.send(deeplyNested(10_000, 'session.started')))
    const error = await failureOf(baseURL)
    expect({ stage: error.stage, kind: error.kind }).toEqual({ stage: 'start', kind: 'malformed_event' })
    expect(error.message).toContain(`deeper than ${MAX_SERVER_EVENT_DEPTH} levels`)
  })

  it('an event nested 10,000 deep after the start fails the stream stage', async () => {
    const baseURL = await misbehavingServer((socket) => {
      socket.send(STARTED)
      socket.send(deeplyNested(10_000, 'response.event'))
    })
    const error = await failureOf(baseURL, true)
    expect({ stage: error.stage, kind: error.kind }).toEqual({ stage: 'stream', kind: 'malformed_event' })
  })

  it(`a frame over ${MAX_SERVER_FRAME_BYTES} bytes fails the stream stage without being read whole`, async () => {
    const baseURL = await misbehavingServer((socket) => {
      socket.send(STARTED)
      const delta = 'A'.repeat(MAX_SERVER_FRAME_BYTES + 16)
      socket.send(`{"type":"session.output_audio.delta","delta":"${delta}"}`)
    })
    const error = await failureOf(baseURL, true)
    expect({ stage: error.stage, kind: error.kind }).toEqual({ stage: 'stream', kind: 'malformed_event' })
    expect(error.message).toContain(`larger than ${MAX_SERVER_FRAME_BYTES} bytes`)
  })

  it('events at the depth limit are accepted', async () => {
    const atLimit = `{"type":"response.event","event_id":"e3","event":{"type":"x","v":${'['.repeat(MAX_SERVER_EVENT_DEPTH - 2)}${']'.repeat(MAX_SERVER_EVENT_DEPTH - 2)}}}`
    expect(nestsDeeperThan(JSON.parse(atLimit), MAX_SERVER_EVENT_DEPTH)).toBe(false)
    expect(nestsDeeperThan(JSON.parse(atLimit), MAX_SERVER_EVENT_DEPTH - 1)).toBe(true)
    const baseURL = await misbehavingServer((socket) => {
      socket.send(STARTED)
      socket.send(atLimit)
    })
    const session = new LiveSession({ apiKey: 'k', baseURL, allowInsecureLoopback: true })
    await session.start({ model: 'gpt-live-1' })
    await session.waitForEvent((event) => event.type === 'response.event', { timeoutMs: 5_000 })
    expect(session.settled).toBeUndefined()
    await session.dispose()
  })
})

describe('a listener that throws', () => {
  it('ends its session with a listener_error at the stage it happened in, never the process', async () => {
    const baseURL = await misbehavingServer((socket) => {
      socket.send(STARTED)
      socket.send('{"type":"session.usage.updated","event_id":"e9","usage":{"seconds":1}}')
    })
    const session = new LiveSession({ apiKey: 'k', baseURL, allowInsecureLoopback: true })
    session.subscribe(({ event }) => {
      if (event.type === 'session.usage.updated') throw new Error('the observer broke')
    })
    await session.start({ model: 'gpt-live-1' })
    const outcome = await session.outcome
    await session.dispose()
    expect(outcome.type).toBe('failed')
    const { error } = outcome as LiveSessionFailed
    expect({ stage: error.stage, kind: error.kind }).toEqual({ stage: 'stream', kind: 'listener_error' })
    expect(error.message).toContain('handling session.usage.updated failed: the observer broke')
  })
})

describe('nestsDeeperThan', () => {
  it('measures without recursion (100,000 levels) and counts a flat object as depth 1', () => {
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 64)).toBe(true)
    expect(nestsDeeperThan({ a: 1, b: 'x' }, 1)).toBe(false)
    expect(nestsDeeperThan({ a: { b: [] } }, 2)).toBe(true)
    expect(nestsDeeperThan('text', 0)).toBe(false)
  })
})
