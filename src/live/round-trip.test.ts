import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type OfflineSessionScript, startOfflineLiveServer } from '../testing/live-server/index.ts'
import type { SessionConfig } from './events.ts'
import { ROUND_TRIP_COMMAND, roundTrip } from './round-trip.ts'
import { LiveSession } from './session.ts'

const CONFIG: SessionConfig = { model: 'gpt-live-1', audio: { format: { type: 'audio/pcm', rate: 24000 } } }
/** 100 ms of PCM16 silence at 24 kHz. */
const CHUNK = new Uint8Array(4_800)

let server: Awaited<ReturnType<typeof startOfflineLiveServer>>
let tokens = 0
const opened: LiveSession[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((session) => session.dispose()))
})
afterAll(async () => {
  await server.close()
})

async function startedSession(script: Partial<OfflineSessionScript> = {}): Promise<LiveSession> {
  tokens += 1
  const token = `round-trip-${tokens}`
  server.registerSession(token, { hearing: [], ...script })
  const session = new LiveSession({ apiKey: token, baseURL: server.baseURL, allowInsecureLoopback: true })
  opened.push(session)
  await session.start(CONFIG)
  return session
}

function sendAudioMs(session: LiveSession, ms: number): void {
  for (let sent = 0; sent < ms; sent += 100) session.appendAudio(CHUNK)
}

const heardEndTimes = (session: LiveSession) =>
  session.log.events.flatMap((item) =>
    item.event.type === 'session.input_transcript.delta' ? [item.event.end_ms] : [],
  )

describe('roundTrip', () => {
  it('resolves only after every event caused by the audio sent before it has arrived', async () => {
    const session = await startedSession({ hearing: [{ text: 'is Thursday free', startMs: 0, endMs: 600 }] })
    sendAudioMs(session, 1_000)
    expect(await roundTrip(session, 5_000)).toBe(true)
    // Read synchronously: no waiting after the barrier.
    expect(heardEndTimes(session).at(-1)).toBe(600)
    const last = session.log.events.at(-1)?.event
    expect(last).toMatchObject({ type: 'session.input_audio.unmuted' })
  })

  it('is a no-op marker for an unmuted stream: later speech is still heard', async () => {
    const session = await startedSession({
      hearing: [
        { text: 'first', startMs: 0, endMs: 300 },
        { text: 'second', startMs: 1_200, endMs: 1_600 },
      ],
    })
    sendAudioMs(session, 1_000)
    await roundTrip(session, 5_000)
    sendAudioMs(session, 1_000)
    await roundTrip(session, 5_000)
    expect(heardEndTimes(session)).toEqual([300, 1_600])
    expect(ROUND_TRIP_COMMAND).toBe('session.input_audio.unmute')
  })

  it('returns false without sending once the session is closing or over', async () => {
    const session = await startedSession()
    expect((await session.close()).type).toBe('closed')
    const count = session.log.events.length
    expect(await roundTrip(session, 5_000)).toBe(false)
    expect(session.log.events).toHaveLength(count)
  })

  it('rejects when the answer does not come', async () => {
    const silentPeer = {
      send: () => ({ eventId: 'evt_1', sentAtMs: 0, seq: 0 }),
      reply: () => Promise.reject(new Error('no reply to evt_1 within 10 ms')),
    }
    await expect(roundTrip(silentPeer, 10)).rejects.toThrow('no reply to evt_1')
  })
})
