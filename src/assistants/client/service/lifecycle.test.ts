// Connection lifecycle beyond the protocol: the ping heartbeat (a peer that stops answering pongs is cut off,
// one that answers stays), the service's own shutdown (running work cancelled, sockets closed as "going away"),
// and a starting state too big to report in session.ready.
import { describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import { AUTH, hangingRun, recordingApplication, useServiceHarness } from './service.test-helpers.ts'

const harness = useServiceHarness()

function openSocket(url: string, autoPong: boolean): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: AUTH, autoPong })
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

describe('heartbeat', () => {
  it('terminates a peer that does not answer pings and releases its slot', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, heartbeatIntervalMs: 40 })
    const socket = await openSocket(service.url, false)
    const code = await new Promise<number>((resolve) =>
      socket.once('close', (closeCode) => resolve(closeCode)),
    )
    expect(code).toBe(1006)
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
  })

  it('keeps a peer that answers pings', async () => {
    const service = await harness.start({ application: recordingApplication(), heartbeatIntervalMs: 40 })
    const socket = await openSocket(service.url, true)
    try {
      let pings = 0
      await new Promise<void>((resolve) => {
        socket.on('ping', () => {
          pings += 1
          if (pings === 4) resolve()
        })
      })
      expect(socket.readyState).toBe(WebSocket.OPEN)
      expect(service.activeConnections).toBe(1)
    } finally {
      socket.terminate()
    }
  })
})

describe('shutdown', () => {
  it('close() cancels running work, closes backends once and the sockets as going away', async () => {
    const application = recordingApplication(hangingRun)
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    await peer.until((frame) => frame.type === 'assistant.event')
    await service.close()
    expect(await peer.closed).toBe(1001)
    expect(application.cancelled).toBe(1)
    expect(application.closed).toBe(1)
    expect(peer.frames.some((frame) => frame.type === 'error')).toBe(false)
    expect(service.activeConnections).toBe(0)
    await service.close()
  })
})

describe('session.ready size', () => {
  it('a starting state too big to report stops the session with client_limit_reached instead of leaving it waiting', async () => {
    const application = recordingApplication()
    // An embedder's application whose own starting state does not fit one frame.
    application.tools = () => new RestaurantTools({ initialState: { note: 'x'.repeat(400) } })
    const service = await harness.start({ application, limits: { max_message_bytes: 300 } })
    const peer = await harness.connect(service)
    peer.send({ type: 'session.configure' })
    expect(await peer.stopCode()).toBe('client_limit_reached')
  })
})
