import OpenAI from 'openai'
import type { ServerEvent } from 'openai/resources/live/live'
import { LiveWS } from 'openai/resources/live/ws'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type OfflineLiveServer, startOfflineLiveServer } from './index.ts'
import { RawLiveClient, testBehaviour } from './test-support.ts'

let server: OfflineLiveServer
beforeEach(async () => {
  server = await startOfflineLiveServer()
})
afterEach(async () => {
  await server.close()
})

describe('startOfflineLiveServer', () => {
  it('listens on loopback and reports the WebSocket URL and the openai baseURL', () => {
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/live\/sessions$/)
    expect(server.baseURL).toBe(server.url.replace('ws://', 'http://').replace('/live/sessions', ''))
  })

  it('refuses an upgrade without a bearer token with HTTP 401', async () => {
    await expect(RawLiveClient.connect(server.url, null)).rejects.toThrow('HTTP 401')
  })

  it('refuses an unregistered token unless acceptAnyToken is set', async () => {
    await expect(RawLiveClient.connect(server.url, 'who-are-you')).rejects.toThrow('HTTP 401')
    const open = await startOfflineLiveServer({ acceptAnyToken: true })
    try {
      const client = await RawLiveClient.connect(open.url, 'anything')
      await client.start()
      client.close()
    } finally {
      await open.close()
    }
  })

  it('names registered sessions after their token, whatever order concurrent sessions connect in', async () => {
    const sessionIds = async (order: string[]) => {
      const fresh = await startOfflineLiveServer()
      try {
        const ids: Record<string, unknown> = {}
        for (const token of order) {
          fresh.registerSession(token, { hearing: [] })
          const client = await RawLiveClient.connect(fresh.url, token)
          const started = await client.start()
          ids[token] = (started.session as { id: string }).id
          client.close()
        }
        return ids
      } finally {
        await fresh.close()
      }
    }
    const first = await sessionIds(['scenario-a', 'scenario-b'])
    expect(await sessionIds(['scenario-b', 'scenario-a'])).toEqual(first)
    expect(first['scenario-a']).not.toBe(first['scenario-b'])
  })

  it('refuses other paths with HTTP 404', async () => {
    server.registerSession('t', { hearing: [] })
    await expect(RawLiveClient.connect(server.url.replace('/sessions', '/other'), 't')).rejects.toThrow(
      'HTTP 404',
    )
  })

  it('refuses an invalid script at registration', () => {
    expect(() => server.registerSession('t', { hearing: [{ text: 'x', startMs: 500, endMs: 100 }] })).toThrow(
      /hearing\.0\.endMs: endMs must be after startMs/,
    )
  })

  it('serves openai LiveWS end to end: start, audio, transcript, spoken answer, close', async () => {
    server.registerSession('sdk-token', {
      hearing: [{ text: 'hello there', startMs: 0, endMs: 500 }],
      behaviour: testBehaviour,
    })
    const client = new OpenAI({ apiKey: 'sdk-token', baseURL: server.baseURL, maxRetries: 0 })
    const live = new LiveWS(client)
    const events: ServerEvent[] = []
    const closed = new Promise<void>((resolve, reject) => {
      live.on('event', (event) => {
        events.push(event)
        if (event.type === 'session.closed') resolve()
      })
      live.on('error', reject)
    })
    live.send({ type: 'session.start', session: { model: 'gpt-live-1' } })
    const silence = Buffer.alloc(1_920).toString('base64')
    for (let i = 0; i < 100; i++) live.send({ type: 'session.input_audio.append', audio: silence })
    live.send({ type: 'session.close' })
    await closed
    const types = events.map((event) => event.type)
    expect(types[0]).toBe('session.started')
    expect(types).toContain('session.input_transcript.delta')
    expect(types).toContain('session.output_audio.delta')
    const said = events.flatMap((event) =>
      event.type === 'session.output_transcript.delta' ? [event.delta] : [],
    )
    expect(said.join('')).toBe(testBehaviour.directAnswer('hello there'))
    expect(events.at(-1)).toMatchObject({ type: 'session.closed', usage: { seconds: 4 } })
    live.close()
  })
})
