// The protocol fault matrix: every way a peer can get a frame wrong, each against a fresh offline server. Each
// case gets exactly one `error` event (and, where the session cannot go on, the close that follows it) or a
// close alone; the server stays alive and serves a valid session afterwards; and what it queued for clients
// stays bounded (its buffered-bytes counter, never the process RSS). Deterministic: no timing, no randomness.
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { OFFLINE_RULE_ERROR_CODE, OfflineRuleError } from '../../assistants/offline-rule-error.ts'
import { LIMIT_CLOSE, LIMIT_ERROR_CODES } from './limits.ts'
import { MAX_QUOTED_CHARS } from './protocol-errors.ts'
import { SOCKET_HIGH_WATER_BYTES } from './send-queue.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from './server.ts'
import {
  bookTableTool,
  type Frame,
  RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from './test-support.ts'

const offline = useOfflineLiveServer()

const MIB = 1024 * 1024
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const audio = (text: string) => JSON.stringify({ type: 'session.input_audio.append', audio: text })

interface FaultCase {
  /** Whether the frame arrives before session.start (the first frame) or in a started session. */
  when: 'first' | 'started'
  /** Sends the faulty input. */
  send: (client: RawLiveClient) => void
  /** The one error's code, or null for a close without an error event. */
  error: string | null
  /** The close code when the connection must end; null when the session goes on. */
  close: number | null
  script?: Parameters<typeof offline.connect>[0]
}

const text = (payload: string) => (client: RawLiveClient) => client.sendText(payload)
const event = (payload: Record<string, unknown>) => (client: RawLiveClient) => client.send(payload)

const CASES: Record<string, FaultCase> = {
  'first frame not JSON': {
    when: 'first',
    send: text('{"type": "session.'),
    error: 'invalid_event',
    close: 1008,
  },
  'first frame binary': {
    when: 'first',
    send: (client) => client.socket.send(Buffer.from([1, 2, 3])),
    error: 'invalid_event',
    close: 1008,
  },
  'first frame not session.start': {
    when: 'first',
    send: event({ type: 'session.input_audio.mute' }),
    error: 'session_not_started',
    close: 1008,
  },
  'session.start with tool parameters nested 10,000 deep': {
    when: 'first',
    send: text(
      `{"type":"session.start","session":{"model":"gpt-live-1","delegation":{"type":"responses","responses":{"model":"m","tools":[{"type":"function","name":"f","parameters":{"p":${deep(10_000)}}}]}}}}`,
    ),
    error: LIMIT_ERROR_CODES.nestingTooDeep,
    close: 1008,
  },
  'first frame over the frame limit': {
    when: 'first',
    send: text(
      JSON.stringify({
        type: 'session.start',
        session: { model: 'gpt-live-1', instructions: 'x'.repeat(MIB) },
      }),
    ),
    error: LIMIT_ERROR_CODES.frameTooLarge,
    close: 1008,
  },
  'not JSON': { when: 'started', send: text('not json at all'), error: 'invalid_event', close: null },
  'a JSON array': { when: 'started', send: text('[1,2,3]'), error: 'invalid_event', close: null },
  'a JSON string': { when: 'started', send: text('"session.close"'), error: 'invalid_event', close: null },
  'a binary frame': {
    when: 'started',
    send: (client) => client.socket.send(Buffer.alloc(64)),
    error: 'invalid_event',
    close: null,
  },
  'no type': {
    when: 'started',
    send: event({ event_id: 'x' }),
    error: 'missing_required_parameter',
    close: null,
  },
  'a numeric type': { when: 'started', send: event({ type: 7 }), error: 'invalid_value', close: null },
  'an unknown type': {
    when: 'started',
    send: event({ type: 'session.explode' }),
    error: 'invalid_event',
    close: null,
  },
  'a 200,000-character type': {
    when: 'started',
    send: event({ type: 't'.repeat(200_000) }),
    error: 'invalid_event',
    close: null,
  },
  'an unknown key': {
    when: 'started',
    send: event({ type: 'session.input_audio.mute', extra: 1 }),
    error: 'unknown_parameter',
    close: null,
  },
  'a 200,000-character key': {
    when: 'started',
    send: event({ type: 'session.input_audio.mute', ['k'.repeat(200_000)]: 1 }),
    error: 'unknown_parameter',
    close: null,
  },
  'a __proto__ key': {
    when: 'started',
    send: text('{"type":"session.input_audio.mute","__proto__":{"polluted":true}}'),
    error: 'unknown_parameter',
    close: null,
  },
  'a numeric event_id': {
    when: 'started',
    send: event({ type: 'session.input_audio.mute', event_id: 5 }),
    error: 'invalid_value',
    close: null,
  },
  'an update nested 10,000 deep': {
    when: 'started',
    send: text(`{"type":"session.update","session":{"delegation":${deep(10_000)}}}`),
    error: LIMIT_ERROR_CODES.nestingTooDeep,
    close: null,
  },
  'an audio append of 4.3 M base64 characters': {
    when: 'started',
    send: text(audio('A'.repeat(4_300_000))),
    error: LIMIT_ERROR_CODES.frameTooLarge,
    close: null,
  },
  'a frame over the transport limit (9 MiB)': {
    when: 'started',
    send: text(audio('A'.repeat(9 * MIB))),
    error: null,
    close: LIMIT_CLOSE.frameTooBig,
  },
  'audio that is not base64': {
    when: 'started',
    send: text(audio('!'.repeat(1_000))),
    error: 'invalid_audio',
    close: null,
  },
  'long base64 audio with one bad character at the end': {
    when: 'started',
    send: text(audio(`${'A'.repeat(999_996)}AA!=`)),
    error: 'invalid_audio',
    close: null,
  },
  'audio with an odd byte count': {
    when: 'started',
    send: text(audio('AA==')),
    error: 'invalid_audio',
    close: null,
  },
  'empty audio': { when: 'started', send: text(audio('')), error: 'invalid_audio', close: null },
  'a second session.start': {
    when: 'started',
    send: event({ type: 'session.start', session: { model: 'gpt-live-1' } }),
    error: 'session_already_started',
    close: null,
  },
  'response.create under client delegation': {
    when: 'started',
    send: event({ type: 'response.create' }),
    error: 'not_responses_delegation',
    close: null,
  },
  'thinking for an unknown delegation': {
    when: 'started',
    send: event({ type: 'session.thinking.append', delegation_id: 'item_nope', content: 'x' }),
    error: 'invalid_value',
    close: null,
  },
  'commentary over 500 tokens': {
    when: 'started',
    send: event({ type: 'session.commentary.append', delegation_id: null, content: 'x'.repeat(2_004) }),
    error: 'invalid_value',
    close: null,
  },
  'an update changing the delegation type': {
    when: 'started',
    send: event({
      type: 'session.update',
      session: { delegation: { type: 'responses', responses: { model: 'm' } } },
    }),
    error: 'immutable_field_update',
    close: null,
  },
  'a context append while 128 already wait for a stalled audio clock': {
    when: 'started',
    send: (client) => {
      for (let i = 0; i <= 128; i++) {
        client.send({ type: 'session.instructions.append', delegation_id: null, content: `note ${i}` })
      }
    },
    error: LIMIT_ERROR_CODES.tooManyPendingAppends,
    close: null,
  },
  'a Decisions command': {
    when: 'started',
    send: event({ type: 'decision.create' }),
    error: 'unsupported_in_offline_server',
    close: null,
  },
  'a command right after session.close': {
    when: 'started',
    send: (client) => {
      client.send({ type: 'session.close' })
      client.send({ type: 'session.input_audio.mute' })
    },
    error: 'session_closing',
    close: 1000,
  },
  'a behaviour that throws inside the session': {
    when: 'started',
    script: {
      hearing: [{ text: 'boom', startMs: 0, endMs: 400 }],
      behaviour: {
        ...testBehaviour,
        inferToolCall: () => {
          throw new Error('the behaviour exploded')
        },
      },
    },
    send: (client) => client.sendAudio(1_000, 100),
    error: LIMIT_ERROR_CODES.offlineServerError,
    close: LIMIT_CLOSE.internalError,
  },
  // The assistant author's bug, not the server's: its own code, so the harness can say whose bug it is.
  'an offline rule that throws inside the session': {
    when: 'started',
    script: {
      hearing: [{ text: 'boom', startMs: 0, endMs: 400 }],
      behaviour: {
        ...testBehaviour,
        inferToolCall: () => {
          throw new OfflineRuleError('offline.rules[0] threw')
        },
      },
    },
    send: (client) => client.sendAudio(1_000, 100),
    error: OFFLINE_RULE_ERROR_CODE,
    close: LIMIT_CLOSE.internalError,
  },
}

const errorsOf = (client: RawLiveClient) => client.events.filter((frame: Frame) => frame.type === 'error')

/** A short valid session on `server`: start, audio, close, session.closed. */
async function validSession(server: OfflineLiveServer): Promise<void> {
  server.registerSession('after-fault', { hearing: [] })
  const client = await RawLiveClient.connect(server.url, 'after-fault')
  try {
    await client.start()
    client.sendAudio(500, 100)
    client.send({ type: 'session.close', event_id: 'bye' })
    const closed = await client.waitFor((frame) => frame.type === 'session.closed')
    expect(closed).toMatchObject({ client_event_id: 'bye', reason: 'close_requested' })
  } finally {
    client.close()
  }
}

async function untilNoConnections(server: OfflineLiveServer): Promise<void> {
  for (let attempt = 0; attempt < 200 && server.stats().openConnections > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(server.stats()).toMatchObject({ openConnections: 0, bufferedBytes: 0 })
}

describe('protocol fault matrix', () => {
  it.each(Object.entries(CASES))('%s', async (_name, fault) => {
    const { server } = offline
    const client = await offline.connect(fault.script ?? { hearing: [] })
    if (fault.when === 'started') await client.start()
    const before = errorsOf(client).length
    fault.send(client)
    if (fault.close === null) {
      // The session goes on: a probe is still answered, after the one error.
      client.send({ type: 'session.input_audio.mute', event_id: 'probe' })
      await client.waitFor((frame) => frame.client_event_id === 'probe')
    } else {
      expect(await client.waitForClose()).toBe(fault.close)
    }
    const errors = errorsOf(client).slice(before)
    expect(errors.map((frame) => (frame.error as { code: string }).code)).toEqual(
      fault.error === null ? [] : [fault.error],
    )
    for (const frame of errors) {
      expect(String((frame.error as { message: string }).message).length).toBeLessThan(MAX_QUOTED_CHARS + 160)
    }
    if (fault.close === null) expect(client.closeCode).toBeNull()

    await validSession(server)
    client.close()
    await untilNoConnections(server)
    expect(server.stats().peakBufferedBytes).toBeLessThanOrEqual(server.limits.maxSendBufferBytes)
  })
})

/** Writes `request` on a raw TCP connection to the server and returns the first response line ('' if none). */
async function rawRequest(server: OfflineLiveServer, request: string): Promise<string> {
  const { port } = new URL(server.url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request))
    let received = ''
    socket.on('data', (data) => {
      received += String(data)
    })
    socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''))
    socket.on('error', () => socket.destroy())
    socket.setTimeout(2_000, () => socket.destroy())
  })
}

const upgradeRequest = (target: string, headers = 'Authorization: Bearer token-x\r\n') =>
  `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${headers}Connection: close\r\n\r\n`

describe('faults before the WebSocket exists', () => {
  it.each([
    ['a request target that is not a URL', upgradeRequest('http://[::1'), 'HTTP/1.1 400 Bad Request'],
    ['a percent-garbled host', upgradeRequest('http://%zz/'), 'HTTP/1.1 400 Bad Request'],
    ['another path', upgradeRequest('/v1/realtime'), 'HTTP/1.1 404 Not Found'],
    ['no bearer token', upgradeRequest('/v1/live/sessions', ''), 'HTTP/1.1 401 Unauthorized'],
    ['bytes that are not HTTP', '\u0000\u0001garbage\r\n\r\n', 'HTTP/1.1 400 Bad Request'],
  ])('%s is refused and the server keeps serving', async (_name, request, status) => {
    expect(await rawRequest(offline.server, request)).toBe(status)
    await validSession(offline.server)
    await untilNoConnections(offline.server)
  })
})

describe('one session failing', () => {
  it('ends only that session: a concurrent one on the same server still takes its turn', async () => {
    const exploding = await offline.connect({
      hearing: [{ text: 'boom', startMs: 0, endMs: 400 }],
      behaviour: {
        ...testBehaviour,
        directAnswer: () => {
          throw new Error('the behaviour exploded')
        },
      },
    })
    const healthy = await offline.connect({
      hearing: [{ text: 'hello', startMs: 0, endMs: 400 }],
      behaviour: testBehaviour,
    })
    await exploding.start()
    await healthy.start()
    exploding.sendAudio(1_000, 100)
    expect(await exploding.waitForClose()).toBe(LIMIT_CLOSE.internalError)
    healthy.sendAudio(3_000, 100)
    await healthy.waitFor(
      () =>
        healthy.events
          .filter((frame) => frame.type === 'session.output_transcript.delta')
          .map((frame) => frame.delta)
          .join('') === testBehaviour.directAnswer('hello'),
      'the healthy session’s answer',
    )
    expect(errorsOf(healthy)).toEqual([])
    expect(errorsOf(exploding).map((frame) => (frame.error as { code: string }).code)).toEqual([
      LIMIT_ERROR_CODES.offlineServerError,
    ])
  })
})

/** Polls `probe` every 10 ms until it holds; a bounded wait, never a timed assertion. */
async function until(probe: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    if (probe()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`never: ${what}`)
}

/** A started session whose client then stops reading and asks for ~36 MB of replies (60 echoes of ~600 KB). */
async function floodingSleeper(
  server: OfflineLiveServer,
): Promise<{ client: RawLiveClient; resume(): void }> {
  server.registerSession('sleeper', { hearing: [], behaviour: testBehaviour })
  const client = await RawLiveClient.connect(server.url, 'sleeper')
  const tools = [{ ...bookTableTool, description: 'd'.repeat(600_000) }]
  await client.start({
    model: 'gpt-live-1',
    delegation: { type: 'responses', responses: { model: 'm', tools } },
  })
  const socket = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket
  socket.pause()
  for (let i = 0; i < 60; i++) {
    client.send({ type: 'session.update', event_id: `u${i}`, session: { delegation: { type: 'responses' } } })
  }
  return { client, resume: () => socket.resume() }
}

describe('a client that does not read', () => {
  it('is sent close 1008 send_buffer_exceeded once what is queued for it passes the bound, other sessions unharmed', async () => {
    // A 1 MiB bound (default 8 MiB) keeps the flood small; the kernel's socket buffers absorb some MB first.
    // The grace is long so that the client, resuming only after the server has given up on it, still finds
    // the close frame (a client that never reads is the next test).
    const server = await startOfflineLiveServer({ limits: { maxSendBufferBytes: MIB, closeGraceMs: 60_000 } })
    try {
      server.registerSession('bystander', { hearing: [] })
      const bystander = await RawLiveClient.connect(server.url, 'bystander')
      await bystander.start()
      const sleeper = await floodingSleeper(server)
      await until(() => server.stats().sendBufferClosures > 0, 'the send-buffer closure')
      const stats = server.stats()
      expect(stats.sendBufferClosures).toBe(1)
      // Our own queue is dropped at the bound; the socket keeps at most its high-water mark plus one frame.
      expect(stats.peakBufferedBytes).toBeLessThanOrEqual(MIB)
      expect(stats.bufferedBytes).toBeLessThan(SOCKET_HIGH_WATER_BYTES + 700_000)

      sleeper.resume()
      expect(await sleeper.client.waitForClose()).toBe(LIMIT_CLOSE.sendBufferExceeded)
      await until(() => server.stats().openConnections === 1, 'only the bystander left')
      expect(server.stats()).toMatchObject({ openConnections: 1, bufferedBytes: 0 })

      bystander.send({ type: 'session.input_audio.mute', event_id: 'still-there' })
      await bystander.waitFor((frame) => frame.client_event_id === 'still-there')
      await validSession(server)
      bystander.close()
    } finally {
      await server.close()
    }
  })

  it('is dropped closeGraceMs after that close when it never reads, and nothing stays queued', async () => {
    const server = await startOfflineLiveServer({ limits: { maxSendBufferBytes: MIB, closeGraceMs: 50 } })
    try {
      const sleeper = await floodingSleeper(server)
      await until(() => server.stats().sendBufferClosures > 0, 'the send-buffer closure')
      await until(() => server.stats().openConnections === 0, 'the non-reader dropped')
      expect(server.stats()).toMatchObject({ openConnections: 0, bufferedBytes: 0, sendBufferClosures: 1 })
      sleeper.client.close()
      await validSession(server)
    } finally {
      await server.close()
    }
  })
})
