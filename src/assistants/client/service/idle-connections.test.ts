// Sockets that never become a session (issue 23 point 3): a flood of silent TCP connections used to hold a
// descriptor each until the peer left, until /health and real upgrades failed. Now each has upgrade_timeout to
// upgrade (or send a request) and at most max_unauthenticated_connections exist; past it the oldest is closed,
// so /health and an authenticated client, which speak at once, still get in. Short limits keep the tests quick;
// they assert what happened, never how long it took.
import { afterEach, describe, expect, it } from 'vitest'
import { type IdleSockets, openIdleSockets, until } from './pending-connections.test-helpers.ts'
import { recordingApplication, useServiceHarness } from './service.test-helpers.ts'

const harness = useServiceHarness()
let idle: IdleSockets | undefined
afterEach(() => {
  idle?.destroyAll()
  idle = undefined
})

describe('connections that do not upgrade', () => {
  it('/health and an authenticated session are served while 1,000 idle sockets are held', async () => {
    const service = await harness.start({
      application: recordingApplication(),
      limits: { max_unauthenticated_connections: 2_000, upgrade_timeout: 600 },
    })
    idle = await openIdleSockets(service.port, 1_000)
    await until(() => service.pendingConnections().pending >= 1_000, '1,000 sockets accepted')
    const health = await fetch(service.healthURL)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok', assistant: 'client' })
    const peer = await harness.connect(service)
    expect(await peer.configure()).toMatchObject({ type: 'session.ready' })
    expect(service.activeConnections).toBe(1)
    expect(idle.closedByServer()).toEqual([])
  })

  it('closes every socket that has not upgraded within upgrade_timeout, and never an upgraded one', async () => {
    const service = await harness.start({
      application: recordingApplication(),
      limits: { upgrade_timeout: 0.2 },
    })
    const peer = await harness.connect(service)
    idle = await openIdleSockets(service.port, 20)
    await until(() => idle?.closedByServer().length === 20, 'the 20 idle sockets closed by the server')
    expect(service.pendingConnections()).toMatchObject({ timedOut: 20, evicted: 0 })
    // The session that upgraded before them is older than their deadline and still works.
    expect(await peer.configure()).toMatchObject({ type: 'session.ready' })
  })

  it('keeps at most max_unauthenticated_connections: the oldest idle sockets are closed, newcomers served', async () => {
    const service = await harness.start({
      application: recordingApplication(),
      limits: { max_unauthenticated_connections: 10, upgrade_timeout: 600 },
    })
    idle = await openIdleSockets(service.port, 1_000)
    await until(() => idle?.closedByServer().length === 990, 'the 990 oldest sockets closed')
    expect(idle.closedByServer()).toEqual([...Array(990).keys()])
    expect(service.pendingConnections()).toMatchObject({ pending: 10, evicted: 990 })
    const health = await fetch(service.healthURL)
    expect(health.status).toBe(200)
    const peer = await harness.connect(service)
    expect(await peer.configure()).toMatchObject({ type: 'session.ready' })
    expect(service.pendingConnections().pending).toBeLessThanOrEqual(10)
  })
})
