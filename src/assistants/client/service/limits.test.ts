// Per-connection limits and deadlines (contract §6, §10 "Limits"): each stops the session with its code and
// "Session stopped", cancels running work and closes the backend; limit checks for a new delegation happen
// before it is recorded, and a repeated delegation id never counts. Deadlines are set in fractions of a second
// so the tests are quick; they assert what happened, never how long it took.
import { describe, expect, it, vi } from 'vitest'
import {
  ANSWER,
  hangingRun,
  liveEvent,
  recordingApplication,
  userSaid,
  useServiceHarness,
} from './service.test-helpers.ts'

const harness = useServiceHarness()

describe('delegation limits', () => {
  it('max_pending_delegations=1: a second running delegation stops the session and cancels the first', async () => {
    const application = recordingApplication(hangingRun)
    const service = await harness.start({ application, limits: { max_pending_delegations: 1 } })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    await peer.until(
      (frame) => frame.type === 'assistant.event' && frame.event.type === 'client_delegation.handoff',
    )
    peer.delegate('deleg_2')
    expect(await peer.stopCode()).toBe('client_limit_reached')
    await peer.closed
    expect(application.handoffs).toHaveLength(1)
    expect(application.cancelled).toBe(1)
    expect(application.closed).toBe(1)
  })

  it('max_delegations=1: a second delegation after the first completed stops the session', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, limits: { max_delegations: 1 } })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    await peer.until(
      (frame) => frame.type === 'assistant.event' && frame.event.type === 'client_delegation.completed',
    )
    peer.delegate('deleg_2')
    expect(await peer.stopCode()).toBe('client_limit_reached')
    expect(application.handoffs).toHaveLength(1)
    await vi.waitFor(() => expect(application.closed).toBe(1))
  })

  it('a repeated delegation id counts once and runs once', async () => {
    const application = recordingApplication()
    const service = await harness.start({
      application,
      limits: { max_delegations: 1, max_pending_delegations: 1 },
    })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    peer.delegate('deleg_1')
    await peer.until(
      (frame) => frame.type === 'assistant.event' && frame.event.type === 'client_delegation.completed',
    )
    peer.delegate('deleg_1')
    peer.send(liveEvent({ type: 'session.closed' }))
    expect(await peer.until((frame) => frame.type === 'session.closed' || frame.type === 'error')).toEqual({
      type: 'session.closed',
    })
    expect(application.handoffs).toHaveLength(1)
    expect(peer.frames.filter((frame) => frame.type === 'live.send')).toHaveLength(1)
  })

  it.each([
    ['max_events=1', { max_events: 1 }],
    ['max_session_bytes=40', { max_session_bytes: 40 }],
  ])('%s: the delegation after configure stops the session, no backend call', async (_label, limits) => {
    const application = recordingApplication()
    const service = await harness.start({ application, limits })
    const peer = await harness.connect(service)
    peer.send({ type: 'session.configure' })
    expect(await peer.next()).toMatchObject({ type: 'session.ready' })
    peer.delegate('deleg_1')
    expect(await peer.stopCode()).toBe('client_limit_reached')
    expect(application.handoffs).toHaveLength(0)
  })

  it('max_session_bytes counts UTF-8 bytes, not characters', async () => {
    const application = recordingApplication()
    const configure = JSON.stringify({ type: 'session.configure', model: 'é'.repeat(20) })
    // 20 characters of é are 40 bytes: the frame is over a limit its character count would pass.
    const service = await harness.start({ application, limits: { max_session_bytes: configure.length + 5 } })
    const peer = await harness.connect(service)
    peer.socket.send(configure)
    expect(await peer.stopCode()).toBe('client_limit_reached')
    expect(application.toolsBuilt).toBe(0)
  })
})

describe('deadlines', () => {
  it('configure_timeout: an unconfigured session stops with client_session_timeout', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, limits: { configure_timeout: 0.05 } })
    const peer = await harness.connect(service)
    expect(await peer.next()).toEqual({
      type: 'error',
      error: { code: 'client_session_timeout', message: 'Session stopped' },
    })
    expect(application.toolsBuilt).toBe(0)
  })

  it('session_timeout is absolute: a configured session stops even while the peer keeps sending', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, limits: { session_timeout: 0.1 } })
    const peer = await harness.connect(service)
    await peer.configure()
    let at = 0
    const chatter = setInterval(() => {
      if (peer.socket.readyState !== peer.socket.OPEN) return
      peer.send(liveEvent(userSaid('hm', at, at + 10)))
      at += 10
    }, 10)
    try {
      expect(await peer.stopCode()).toBe('client_session_timeout')
    } finally {
      clearInterval(chatter)
    }
    await vi.waitFor(() => expect(application.closed).toBe(1))
  })

  it('session_timeout also stops an unconfigured session', async () => {
    const service = await harness.start({
      application: recordingApplication(),
      limits: { session_timeout: 0.05, configure_timeout: 60 },
    })
    const peer = await harness.connect(service)
    expect(await peer.stopCode()).toBe('client_session_timeout')
  })

  it('cleanup_timeout: a backend whose close never settles does not keep the connection slot', async () => {
    const application = recordingApplication(hangingRun)
    application.backend = (configure, context) => {
      const backend = recordingApplication(hangingRun).backend(configure, context)
      return { run: backend.run.bind(backend), close: () => new Promise<void>(() => {}) }
    }
    const service = await harness.start({
      application,
      limits: { cleanup_timeout: 0.05, max_connections: 1, max_pending_delegations: 1 },
    })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    peer.delegate('deleg_2')
    expect(await peer.stopCode()).toBe('client_limit_reached')
    await peer.closed
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
    const next = await harness.connect(service)
    expect(await next.configure()).toMatchObject({ type: 'session.ready' })
  })

  it('a peer that closes mid-delegation ends the session silently and cancels the work', async () => {
    const application = recordingApplication(hangingRun)
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    await peer.until((frame) => frame.type === 'assistant.event')
    await peer.close()
    await vi.waitFor(() => expect(application.closed).toBe(1))
    expect(application.cancelled).toBe(1)
    expect(peer.frames.some((frame) => frame.type === 'error')).toBe(false)
  })

  it('the default limits let an ordinary session through', async () => {
    const service = await harness.start({ application: recordingApplication() })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    expect(await peer.until((frame) => frame.type === 'live.send')).toMatchObject({
      event: { content: ANSWER },
    })
  })
})
