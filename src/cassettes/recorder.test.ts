// The recorder's HTTP side: an answered request is kept with where its answer came in the execution's order; one its
// client gave up on (the call ended with it in flight, a timeout) is kept as aborted, so a replay of the same
// request knows the recording never had its answer; one whose connection failed (no abort) is kept as that, a failure
// a client retries. Every request that ended, answered or not, is owed its turns before the recording's next
// real-time frame (request-end-turns.ts).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { CassetteRecorder } from './recorder.ts'

let server: Server | null = null
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())))
  server = null
})

/** A loopback server that answers `/answered` and never answers anything else. */
async function startServer(): Promise<string> {
  server = createServer((request, response) => {
    if (request.url === '/v1/dropped') request.socket.destroy()
    if (request.url === '/v1/answered') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"ok":true}')
    }
  })
  await new Promise<void>((resolve) => (server as Server).listen(0, '127.0.0.1', () => resolve()))
  return `http://127.0.0.1:${((server as Server).address() as AddressInfo).port}`
}

describe('recording HTTP exchanges', () => {
  test('an answer is kept with its place in the order; a request given up on is kept as aborted; each is owed its turns', async () => {
    const base = await startServer()
    const recorder = new CassetteRecorder({ extraNames: [], secretValues: [] }, 1024 * 1024)
    expect(recorder.requestEnds.synchronized()).toBeNull()
    const answered = await recorder.fetch(`${base}/v1/answered`, { method: 'POST', body: '{"q":1}' })
    expect(await answered.json()).toEqual({ ok: true })
    // Owed its turns before the next real-time frame; none once it had them.
    await expect(recorder.requestEnds.synchronized()).resolves.toBeUndefined()
    expect(recorder.requestEnds.synchronized()).toBeNull()
    const abort = new AbortController()
    const pending = recorder.fetch(`${base}/v1/never`, {
      method: 'POST',
      body: '{"q":2}',
      signal: abort.signal,
    })
    abort.abort()
    await expect(pending).rejects.toThrow()
    expect(recorder.requestEnds.synchronized()).not.toBeNull()
    const [first, second] = recorder.finish().http
    expect(first).toMatchObject({ seq: 0, answered_seq: 1, status: 200, response: { json: { ok: true } } })
    expect(first?.aborted).toBeUndefined()
    expect(second).toMatchObject({ seq: 2, answered_seq: 3, status: 0, aborted: true, path: '/v1/never' })
    expect(second?.response).toEqual({ content_type: null })
    expect(second?.connection_failed).toBeUndefined()
  })

  test('a request whose connection failed is kept as aborted by the connection, not given up', async () => {
    const base = await startServer()
    const recorder = new CassetteRecorder({ extraNames: [], secretValues: [] }, 1024 * 1024)
    const signal = new AbortController().signal
    await expect(
      recorder.fetch(`${base}/v1/dropped`, { method: 'POST', body: '{"q":3}', signal }),
    ).rejects.toThrow()
    const [dropped] = recorder.finish().http
    expect(dropped).toMatchObject({
      seq: 0,
      answered_seq: 1,
      status: 0,
      aborted: true,
      connection_failed: true,
    })
  })
})
