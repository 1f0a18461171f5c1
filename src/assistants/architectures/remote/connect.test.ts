// The connector's handshake (contract §2, §10 "Security/handshake" and "Connector refuses …"): what is
// refused before any socket, what the upgrade carries, redirects and refusals, the connection-limit retry,
// the ready reply, the deadlines and the heartbeat, each against a real loopback server.
import { describe, expect, it } from 'vitest'
import { TOKEN_REUSE_MESSAGE, TOKEN_SHAPE_MESSAGE } from '../../client/service/token.ts'
import {
  created,
  errorsIn,
  rejectionOf,
  TOKEN,
  until,
  useScriptedServices,
} from './connector.test-helpers.ts'
import { ENDPOINT_MESSAGE } from './endpoint.ts'

const services = useScriptedServices()

describe('before any socket', () => {
  it.each([
    ['', TOKEN_SHAPE_MESSAGE],
    ['short', TOKEN_SHAPE_MESSAGE],
    ['a'.repeat(31), TOKEN_SHAPE_MESSAGE],
    ['a'.repeat(513), TOKEN_SHAPE_MESSAGE],
    [`${'a'.repeat(32)}\n`, TOKEN_SHAPE_MESSAGE],
    ['é'.repeat(32), TOKEN_SHAPE_MESSAGE],
  ])('refuses the token %j without dialing', async (token, message) => {
    const service = await services.start()
    const { connector } = services.connector(service, { token })
    const failure = await rejectionOf(connector.start())
    expect(failure.message).toBe(message)
    expect(service.upgrades).toEqual([])
  })

  it.each(['OPENAI_API_KEY', 'OPENAI_RESPONSES_API_KEY'] as const)(
    'refuses a token equal to %s without dialing',
    async (variable) => {
      const service = await services.start()
      const { connector } = services.connector(service, { openAiKeys: { [variable]: TOKEN } })
      expect((await rejectionOf(connector.start())).message).toBe(TOKEN_REUSE_MESSAGE)
      expect(service.upgrades).toEqual([])
    },
  )

  it('refuses a plaintext loopback endpoint without the opt-in, naming neither URL nor token', async () => {
    const service = await services.start()
    const { connector } = services.connector(service, { allowInsecureLoopback: false })
    const failure = await rejectionOf(connector.start())
    expect(failure.message).toBe(ENDPOINT_MESSAGE)
    expect(failure.message).not.toContain('127.0.0.1')
    expect(service.upgrades).toEqual([])
    // Waiters learn the same failure; nothing is pending.
    await expect(connector.wait()).rejects.toThrow(ENDPOINT_MESSAGE)
  })
})

describe('the upgrade', () => {
  it('carries Authorization: Bearer <token>, then configure first, then ready', async () => {
    const service = await services.start()
    const { connector, observer } = services.connector(service)
    const [ready, configure] = await Promise.all([
      connector.start(),
      service.nextPeer().then((peer) => peer.ready({ tables: 3 })),
    ])
    expect(service.upgrades[0]?.authorization).toBe(`Bearer ${TOKEN}`)
    expect(configure).toEqual({ type: 'session.configure', initial_items: [] })
    expect(ready).toEqual({ type: 'session.ready', application_state: { tables: 3 } })
    // The service owns the state: its ready state is the initial state graded.
    expect(observer.initialState).toEqual({ tables: 3 })
    expect(observer.initialStateSource).toBe('service')
  })

  it('without a state in ready, the scenario state stands', async () => {
    const service = await services.start()
    const { connector, observer } = services.connector(service)
    await Promise.all([connector.start(), service.nextPeer().then((peer) => peer.ready())])
    expect(observer.initialState).toEqual({ scenario: true })
    expect(observer.initialStateSource).toBe('scenario')
  })

  it('refuses a redirect before the target is contacted, the token absent and no socket left open', async () => {
    const target = await services.start()
    const redirecting = await services.start({
      answer: () => ({ status: 307, headers: { Location: target.url } }),
    })
    const { connector } = services.connector(redirecting)
    const failure = await rejectionOf(connector.start())
    expect(failure.message).toBe('Client assistant connection failed (ClientAssistantRedirectError)')
    expect(failure.message).not.toContain(TOKEN)
    expect(target.upgrades).toEqual([])
    expect(redirecting.upgrades).toHaveLength(1)
    await until(() => redirecting.openSockets() === 0)
    await connector.close()
  })

  it.each([401, 403, 404])('an upgrade answered %i fails as a connection failure, once', async (status) => {
    const service = await services.start({ answer: () => ({ status }) })
    const { connector } = services.connector(service)
    const failure = await rejectionOf(connector.start())
    expect(failure.message).toBe('Client assistant connection failed (ClientAssistantHandshakeError)')
    expect(service.upgrades).toHaveLength(1)
  })

  it('retries a 503 a bounded number of times, then names the connection limit', async () => {
    const service = await services.start({ answer: () => ({ status: 503 }) })
    const { connector } = services.connector(service, {
      connection: { connectionLimitAttempts: 3, connectionLimitFirstPauseMs: 1 },
    })
    const failure = await rejectionOf(connector.start())
    expect(failure.message).toMatch(
      /^Client assistant connection failed \(ClientAssistantConnectionLimitError\): the service's connection limit \(max_connections\) answered 503 to 3 attempts/,
    )
    expect(service.upgrades).toHaveLength(3)
  })

  it('a 503 followed by a free slot connects', async () => {
    const service = await services.start({
      answer: (_request, attempt) => (attempt === 1 ? { status: 503 } : null),
    })
    const { connector } = services.connector(service, { connection: { connectionLimitFirstPauseMs: 1 } })
    await Promise.all([connector.start(), service.nextPeer().then((peer) => peer.ready())])
    expect(service.upgrades).toHaveLength(2)
  })
})

describe('the ready reply', () => {
  it.each([
    [
      'an error frame',
      (send: (text: string) => void) => send(JSON.stringify({ type: 'error', error: { code: 'x' } })),
    ],
    ['a non-JSON frame', (send: (text: string) => void) => send('not json')],
    ['an array', (send: (text: string) => void) => send('[]')],
    [
      'another message first',
      (send: (text: string) => void) => send(JSON.stringify({ type: 'assistant.event' })),
    ],
  ])('%s instead of session.ready: the endpoint rejected the session', async (_name, answer) => {
    const service = await services.start()
    const { connector } = services.connector(service)
    const [failure] = await Promise.all([
      rejectionOf(connector.start()),
      service.nextPeer().then(async (peer) => {
        await peer.next()
        answer((text) => peer.sendRaw(text))
        return peer.closed
      }),
    ])
    expect(failure.message).toBe('Client assistant endpoint rejected the evaluation session')
  })

  it('a close before ready: the endpoint rejected the session', async () => {
    const service = await services.start()
    const { connector } = services.connector(service)
    const [failure] = await Promise.all([
      rejectionOf(connector.start()),
      service.nextPeer().then(async (peer) => {
        await peer.next()
        peer.socket.close(1008)
      }),
    ])
    expect(failure.message).toBe('Client assistant endpoint rejected the evaluation session')
  })

  it('no ready within the ready deadline: a connection failure, the socket released', async () => {
    const service = await services.start()
    const { connector } = services.connector(service, { connection: { readyTimeoutMs: 50 } })
    const [failure, code] = await Promise.all([
      rejectionOf(connector.start()),
      service.nextPeer().then((peer) => peer.closed),
    ])
    expect(failure.message).toBe('Client assistant connection failed (ClientAssistantReadyTimeoutError)')
    expect(code).toBe(1006)
  })

  it('an upgrade never answered fails at the connect deadline', async () => {
    // A listener that accepts TCP and never answers HTTP.
    const { createServer } = await import('node:net')
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    try {
      const { connector } = services.connector(
        { url: `ws://127.0.0.1:${port}/ws/assistant` },
        { connection: { connectTimeoutMs: 50 } },
      )
      expect((await rejectionOf(connector.start())).message).toBe(
        'Client assistant connection failed (Error)',
      )
    } finally {
      silent.close()
    }
  })

  it('close while connecting ends the attempt and leaves nothing open', async () => {
    const service = await services.start()
    const { connector } = services.connector(service)
    const starting = rejectionOf(connector.start())
    const peer = await service.nextPeer()
    await connector.close()
    expect((await starting).message).toBe('Client assistant connection failed (ClientAssistantClosedError)')
    await peer.closed
  })
})

describe('the heartbeat', () => {
  it('a service that stops answering pings is dead: one unexpected-EOF error', async () => {
    const { connector, emitted } = await services.connected({ autoPong: false }, { heartbeatIntervalMs: 20 })
    connector.observe(created('d1'))
    await expect(connector.wait()).rejects.toThrow('Client assistant WebSocket ended unexpectedly')
    expect(errorsIn(emitted)).toHaveLength(1)
  })

  it('a live service keeps the session through several heartbeats', async () => {
    // The pong window is half the interval; a wide one keeps a loaded machine from looking dead.
    const { connector, peer, emitted } = await services.connected({}, { heartbeatIntervalMs: 300 })
    let pings = 0
    peer.socket.on('ping', () => {
      pings += 1
    })
    await until(() => pings >= 3)
    connector.observe(created('d1'))
    peer.answer('d1', 'Still here.')
    await connector.wait()
    expect(errorsIn(emitted)).toEqual([])
  })
})
