// The GPT-Live preflight against real servers on loopback: the offline server starts and closes a session, a
// closed port is an address problem, a server answering the WebSocket upgrade with 401 is a key problem.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { unusedLoopbackPort } from '../testing/unused-port.test-helpers.ts'
import { preflightLiveSession } from './preflight.ts'

const settings = (baseURL: string) => ({
  apiKey: 'sk-test-preflight',
  baseURL,
  allowInsecureLoopback: true,
  model: 'gpt-live-1',
  timeoutMs: 5_000,
})

describe('preflightLiveSession', () => {
  test('a session the endpoint starts and closes is no problem', async () => {
    const server = await startOfflineLiveServer({ acceptAnyToken: true })
    try {
      expect(await preflightLiveSession(settings(server.baseURL))).toBeNull()
    } finally {
      await server.close()
    }
  })

  test('a closed port is an address problem naming the URL dialled', async () => {
    const port = await unusedLoopbackPort()
    const problem = await preflightLiveSession(settings(`http://127.0.0.1:${port}/v1`))
    expect(problem).toEqual({
      url: `ws://127.0.0.1:${port}/v1/live/sessions`,
      status: 'connection refused (ECONNREFUSED)',
      blame: 'address',
    })
  })

  test('an upgrade refused with 401 is a key problem', async () => {
    const server = createServer((_request, response) => response.writeHead(401).end())
    server.on('upgrade', (_request, socket) => {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const problem = await preflightLiveSession(settings(`http://127.0.0.1:${port}/v1`))
      expect(problem).toEqual({
        url: `ws://127.0.0.1:${port}/v1/live/sessions`,
        status: 'HTTP 401',
        blame: 'credentials',
      })
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

test('an endpoint the settings refuse is not dialled, and the refusal names the variable to set', async () => {
  const problem = await preflightLiveSession({
    ...settings('http://127.0.0.1:9/v1'),
    allowInsecureLoopback: false,
  })
  expect(problem).toEqual({
    url: 'http://127.0.0.1:9/v1',
    status:
      'refusing unencrypted http:// to loopback 127.0.0.1:9: set OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK=1 to allow it (meant for the offline server)',
    blame: 'settings',
  })
})
