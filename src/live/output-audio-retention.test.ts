import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { SessionTrace } from '../observability/trace.ts'
import { LiveEventLog } from './event-log.ts'
import { type ReceivedLiveEvent, withoutOutputAudio } from './events.ts'
import { LiveSession } from './session.ts'

const AUDIO = Buffer.from(Int16Array.from([1, -2, 300, -4000, 5]).buffer).toString('base64')

const servers: WebSocketServer[] = []
afterEach(async () => {
  for (const server of servers) for (const client of server.clients) client.terminate()
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A raw server that starts the session, then speaks two audio deltas and a caption in one burst. */
async function speakingServer(): Promise<string> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  await new Promise((resolve) => server.once('listening', resolve))
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as { type: string; event_id?: string }
      if (event.type === 'session.start') {
        socket.send(JSON.stringify({ type: 'session.started', event_id: 's1', session: { id: 'live_1' } }))
        socket.send(JSON.stringify({ type: 'session.output_audio.delta', event_id: 'a1', delta: AUDIO }))
        socket.send(JSON.stringify({ type: 'session.output_audio.delta', event_id: 'a2', delta: '' }))
        socket.send(
          JSON.stringify({
            type: 'session.output_transcript.delta',
            event_id: 't1',
            delta: 'Hello',
            start_ms: 0,
            end_ms: 200,
          }),
        )
      } else if (event.type === 'session.close') {
        socket.send(JSON.stringify({ type: 'session.closed', reason: 'client', usage: { seconds: 1 } }))
        socket.close()
      }
    })
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

/** The trace records of received events, as RUN's trace writes them from a session log. */
function traceOf(events: readonly ReceivedLiveEvent[]): unknown[] {
  const trace = new SessionTrace()
  for (const received of events) {
    trace.add('server', 'received', received.receivedAtMs, received.event, received.outputAudioBytes)
  }
  return trace.records.map((record) => ({ ...record }))
}

describe('a log that does not keep output audio', () => {
  it('listeners get each delta whole; the log keeps its size and the trace reads the same', async () => {
    const baseURL = await speakingServer()
    const sessions = [true, false].map(
      (keepOutputAudio) =>
        new LiveSession({ apiKey: 'k', baseURL, allowInsecureLoopback: true }, { keepOutputAudio }),
    )
    const heard: string[][] = [[], []]
    for (const [index, session] of sessions.entries()) {
      session.subscribe(({ event }) => {
        if (event.type === 'session.output_audio.delta') heard[index]?.push(event.delta)
      })
    }
    for (const session of sessions) {
      await session.start({ model: 'gpt-live-1' })
      await session.waitForEvent((event) => event.type === 'session.output_transcript.delta', {
        timeoutMs: 5_000,
      })
      expect((await session.close()).type).toBe('closed')
    }
    const [kept, sized] = sessions.map((session) => session.log.events) as [
      readonly ReceivedLiveEvent[],
      readonly ReceivedLiveEvent[],
    ]

    expect(heard).toEqual([
      [AUDIO, ''],
      [AUDIO, ''],
    ])
    expect(kept[1]).toMatchObject({ event: { delta: AUDIO } })
    expect(kept[1]?.outputAudioBytes).toBeUndefined()
    expect(sized[1]).toMatchObject({ seq: 1, event: { type: 'session.output_audio.delta', delta: '' } })
    expect(sized[1]?.outputAudioBytes).toBe(10)
    // An empty delta has nothing to drop; every other event is kept whole.
    expect(sized[2]?.event).toEqual(kept[2]?.event)
    expect(sized[2]?.outputAudioBytes).toBeUndefined()
    expect(sized.map((item) => item.event.type)).toEqual(kept.map((item) => item.event.type))
    const strip = (records: unknown[]) =>
      records.map((record) => ({ ...(record as Record<string, unknown>), at_ms: null }))
    expect(strip(traceOf(sized))).toEqual(strip(traceOf(kept)))
    expect(traceOf(sized)[1]).toMatchObject({ event: { delta_bytes: 10 } })
  })

  it('iterators started later read the log as kept (sizes, not audio)', async () => {
    const log = new LiveEventLog(withoutOutputAudio)
    log.append({ seq: 0, receivedAtMs: 5, event: { type: 'session.output_audio.delta', delta: AUDIO } })
    log.seal()
    const read: ReceivedLiveEvent[] = []
    for await (const received of log.iterate()) read.push(received)
    expect(read).toEqual([
      {
        seq: 0,
        receivedAtMs: 5,
        event: { type: 'session.output_audio.delta', delta: '' },
        outputAudioBytes: 10,
      },
    ])
  })
})
