// The service's front door (contract §2, §10 security/handshake): token rules at start, the public health
// route, the pre-upgrade checks in order (401, 403, 503) with no factory ever invoked for a refused request,
// loopback-only binding, exact Origin allowlist entries, and the connection limit under parallel upgrades.
import { describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { resolveServiceLimits } from './limits.ts'
import { parseAllowedOrigin } from './origins.ts'
import {
  ANSWER,
  AUTH,
  delegationCreated,
  liveEvent,
  PeerClient,
  rawUpgradeStatus,
  recordingApplication,
  TOKEN,
  useServiceHarness,
} from './service.test-helpers.ts'
import { startClientAssistantService } from './service.ts'

const harness = useServiceHarness()

/** The HTTP status a `ws` client's upgrade gets (101 when it opened). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('open', () => {
      socket.terminate()
      resolve(101)
    })
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      response.resume()
      socket.terminate()
    })
    socket.once('error', reject)
  })
}

describe('token rules at start', () => {
  it.each([
    ['empty', ''],
    ['short', 'short'],
    ['31 characters', 'x'.repeat(31)],
    ['513 characters', 'x'.repeat(513)],
    ['32 characters and a newline', `${'x'.repeat(32)}\n`],
    ['32 non-ASCII characters', 'é'.repeat(32)],
    ['a space inside', `${'x'.repeat(20)} ${'x'.repeat(20)}`],
    ['missing', undefined],
  ])('refuses a token that is %s, naming the variable', async (_label, token) => {
    const application = recordingApplication()
    await expect(startClientAssistantService({ token, env: {}, application })).rejects.toThrow(
      'OPENAI_CLIENT_ASSISTANT_TOKEN must contain a separate random token of at least 32 characters',
    )
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })

  it.each(['OPENAI_API_KEY', 'OPENAI_RESPONSES_API_KEY'])('refuses a token equal to %s', async (variable) => {
    await expect(
      startClientAssistantService({
        token: TOKEN,
        env: { [variable]: TOKEN },
        application: recordingApplication(),
      }),
    ).rejects.toThrow('OPENAI_CLIENT_ASSISTANT_TOKEN must not reuse an OpenAI API key')
  })

  it('accepts 32 and 512 printable ASCII characters, and a token that differs from the keys', async () => {
    for (const token of ['!'.repeat(32), '~'.repeat(512)]) {
      const service = await harness.start({
        token,
        env: { OPENAI_API_KEY: 'sk-other' },
        application: recordingApplication(),
      })
      expect(service.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/assistant$/)
    }
  })
})

describe('configuration checks', () => {
  it('binds only loopback addresses', async () => {
    for (const host of ['0.0.0.0', '192.168.1.10', '::', 'example.com']) {
      await expect(harness.start({ host, application: recordingApplication() })).rejects.toThrow(
        'The reference assistant must bind to a loopback address',
      )
    }
    const service = await harness.start({ host: 'localhost', application: recordingApplication() })
    expect(service.url).toBe(`ws://localhost:${service.port}/ws/assistant`)
  })

  it.each([
    'https://example.com/',
    'https://example.com/app',
    'https://user:pw@example.com',
    'https://example.com?x=1',
    'https://example.com#top',
    'null',
    'ftp://example.com',
    'example.com',
    'https://',
  ])('refuses the allowed Origin entry %s', (entry) => {
    expect(() => parseAllowedOrigin(entry)).toThrow(
      'Allowed Origins must be exact HTTP(S) origins without paths or credentials',
    )
  })

  it('keeps an allowed Origin as browsers serialize it', () => {
    expect(parseAllowedOrigin('https://example.com')).toBe('https://example.com')
    expect(parseAllowedOrigin('HTTPS://Example.COM:443')).toBe('https://example.com')
    expect(parseAllowedOrigin('http://localhost:5173')).toBe('http://localhost:5173')
  })

  it.each([
    { max_connections: 0 },
    { max_events: 1.5 },
    { configure_timeout: 0 },
    { session_timeout: Number.POSITIVE_INFINITY },
    { delegation_timeout: Number.NaN },
    { cleanup_timeout: -1 },
    { max_message_bytes: '256' },
    { max_connection: 8 },
  ])('refuses the limits %j, naming the limit', (overrides) => {
    expect(() => resolveServiceLimits(overrides)).toThrow(
      /^Client service limits must be finite positive numbers; counts must be integers \(check \w+\)$/,
    )
  })

  it('fills every limit from the defaults', () => {
    expect(resolveServiceLimits({ max_connections: 2 })).toEqual({
      max_connections: 2,
      max_pending_delegations: 4,
      max_delegations: 64,
      max_message_bytes: 262_144,
      max_session_bytes: 8_388_608,
      max_events: 20_000,
      configure_timeout: 10,
      session_timeout: 600,
      delegation_timeout: 60,
      cleanup_timeout: 5,
      upgrade_timeout: 10,
      max_unauthenticated_connections: 256,
    })
  })
})

describe('routes and pre-upgrade checks', () => {
  it('answers /health publicly and statelessly', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application })
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await fetch(service.healthURL)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ status: 'ok', assistant: 'client' })
    }
    expect((await fetch(service.healthURL, { method: 'POST' })).status).toBe(405)
    expect((await fetch(`http://127.0.0.1:${service.port}/elsewhere`)).status).toBe(404)
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })

  it('refuses bad credentials in the contract order and never builds anything', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, allowedOrigins: ['https://app.example.com'] })
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 401],
      [{ Authorization: 'Bearer wrong-token-0123456789-abcdefghijklmnop' }, 401],
      [{ Authorization: `bearer ${TOKEN}` }, 401],
      [{ Authorization: TOKEN }, 401],
      [{ Origin: 'https://evil.example.com' }, 401],
      [{ ...AUTH, Origin: 'https://evil.example.com' }, 403],
      [{ ...AUTH, Origin: 'null' }, 403],
      [{ ...AUTH, Origin: 'https://app.example.com/' }, 403],
    ]
    for (const [headers, status] of cases) expect(await upgradeStatus(service.url, headers)).toBe(status)
    expect((await fetch(service.healthURL)).status).toBe(200)
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
    expect(service.activeConnections).toBe(0)
  })

  it('needs exactly one Authorization and at most one Origin header', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, allowedOrigins: ['https://app.example.com'] })
    const auth = `Authorization: Bearer ${TOKEN}`
    expect(await rawUpgradeStatus(service.port, [auth, auth])).toBe(401)
    expect(await rawUpgradeStatus(service.port, [`Authorization: Bearer  ${TOKEN}`])).toBe(401)
    expect(
      await rawUpgradeStatus(service.port, [
        auth,
        'Origin: https://app.example.com',
        'Origin: https://app.example.com',
      ]),
    ).toBe(403)
    expect(await rawUpgradeStatus(service.port, [auth], '/ws/other')).toBe(404)
    expect(await rawUpgradeStatus(service.port, [auth, 'Origin: https://app.example.com'])).toBe(101)
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })

  it.each([
    ['no Origin', {}],
    ['an allowed Origin', { Origin: 'https://app.example.com' }],
  ])(
    'with %s: configure, ready, one delegation answered; the backend ran once and closed after disconnect',
    async (_label, origin) => {
      const application = recordingApplication()
      const service = await harness.start({ application, allowedOrigins: ['https://app.example.com'] })
      const peer = await harness.connect(service, { ...AUTH, ...origin })
      expect(await peer.configure()).toEqual({ type: 'session.ready', application_state: {} })
      peer.send(liveEvent(delegationCreated('deleg_1')))
      const send = await peer.until((frame) => frame.type === 'live.send')
      expect(send).toMatchObject({
        type: 'live.send',
        event: { type: 'session.commentary.append', delegation_id: 'deleg_1', content: ANSWER },
      })
      expect(application.handoffs).toHaveLength(1)
      await peer.close()
      await vi.waitFor(() => expect(application.closed).toBe(1))
      await vi.waitFor(() => expect(service.activeConnections).toBe(0))
    },
  )
})

describe('the connection limit', () => {
  it('refuses the second connection with 503 and accepts it after the first disconnected', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, limits: { max_connections: 1 } })
    const first = await harness.connect(service)
    expect(await upgradeStatus(service.url, AUTH)).toBe(503)
    await first.close()
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
    const second = await harness.connect(service)
    expect(await second.configure()).toMatchObject({ type: 'session.ready' })
  })

  it('admits exactly max_connections of many parallel upgrades', async () => {
    const service = await harness.start({
      application: recordingApplication(),
      limits: { max_connections: 3 },
    })
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, () => PeerClient.connect(service.url)),
    )
    const opened = attempts.filter((attempt) => attempt.status === 'fulfilled')
    const refused = attempts.filter(
      (attempt) => attempt.status === 'rejected' && String(attempt.reason).includes('503'),
    )
    expect([opened.length, refused.length]).toEqual([3, 9])
    for (const attempt of opened) if (attempt.status === 'fulfilled') await attempt.value.close()
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
  })

  it('releases the slot of an upgrade that ws itself rejects as malformed', async () => {
    const service = await harness.start({
      application: recordingApplication(),
      limits: { max_connections: 1 },
    })
    // No Sec-WebSocket-Key: our checks pass, then ws answers 400 itself without calling back.
    const status = await rawUpgradeStatus(service.port, [`Authorization: Bearer ${TOKEN}`], '/ws/assistant', [
      'Sec-WebSocket-Version: 13',
    ])
    expect(status).toBe(400)
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
    const peer = await harness.connect(service)
    expect(await peer.configure()).toMatchObject({ type: 'session.ready' })
  })
})
