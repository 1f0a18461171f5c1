// Sockets that never become a session on the offline server (issue 23 point 3): each has upgradeTimeoutMs to
// complete its upgrade (or send a request) and at most maxPendingConnections exist; past it the oldest is
// closed, so a plain HTTP request and a real session, which speak at once, still get in. The rules are the
// client service's (pending-connections.ts); these tests pin that the offline server applies them.
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type IdleSockets,
  openIdleSockets,
  until,
} from '../../assistants/client/service/pending-connections.test-helpers.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from './server.ts'
import { RawLiveClient } from './test-support.ts'

let server: OfflineLiveServer | undefined
let idle: IdleSockets | undefined
afterEach(async () => {
  idle?.destroyAll()
  idle = undefined
  await server?.close()
  server = undefined
})

const portOf = (live: OfflineLiveServer) => Number(new URL(live.url).port)

/** The status a plain GET gets (the offline server answers 426 to anything that is not an upgrade). */
function plainStatus(live: OfflineLiveServer): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: portOf(live), path: '/', agent: false }, (answer) => {
      answer.resume()
      resolve(answer.statusCode ?? 0)
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

async function startedSession(live: OfflineLiveServer, token: string): Promise<RawLiveClient> {
  live.registerSession(token, { hearing: [] })
  const client = await RawLiveClient.connect(live.url, token)
  await client.start()
  return client
}

describe('offline server: connections that do not upgrade', () => {
  it('answers HTTP and starts a session while 1,000 idle sockets are held', async () => {
    server = await startOfflineLiveServer({
      limits: { maxPendingConnections: 2_000, upgradeTimeoutMs: 600_000 },
    })
    const live = server
    idle = await openIdleSockets(portOf(live), 1_000)
    await until(() => live.stats().pendingConnections >= 1_000, '1,000 sockets accepted')
    expect(await plainStatus(live)).toBe(426)
    const client = await startedSession(live, 'under-flood')
    expect(live.stats().openConnections).toBe(1)
    expect(idle.closedByServer()).toEqual([])
    client.close()
  })

  it('closes every socket that has not upgraded within upgradeTimeoutMs, and never an upgraded one', async () => {
    server = await startOfflineLiveServer({ limits: { upgradeTimeoutMs: 200 } })
    const live = server
    const client = await startedSession(live, 'early')
    idle = await openIdleSockets(portOf(live), 20)
    await until(() => idle?.closedByServer().length === 20, 'the 20 idle sockets closed by the server')
    expect(live.stats()).toMatchObject({ pendingTimedOut: 20, pendingEvicted: 0, openConnections: 1 })
    client.send({ type: 'session.input_audio.mute', event_id: 'still-there' })
    await client.waitFor((frame) => frame.client_event_id === 'still-there')
    client.close()
  })

  it('keeps at most maxPendingConnections: the oldest idle sockets are closed, newcomers served', async () => {
    server = await startOfflineLiveServer({
      limits: { maxPendingConnections: 10, upgradeTimeoutMs: 600_000 },
    })
    const live = server
    idle = await openIdleSockets(portOf(live), 1_000)
    await until(() => idle?.closedByServer().length === 990, 'the 990 oldest sockets closed')
    expect(idle.closedByServer()).toEqual([...Array(990).keys()])
    expect(live.stats()).toMatchObject({ pendingConnections: 10, pendingEvicted: 990 })
    expect(await plainStatus(live)).toBe(426)
    const client = await startedSession(live, 'newcomer')
    expect(live.stats().pendingConnections).toBeLessThanOrEqual(10)
    client.close()
  })
})
