import { describe, expect, it } from 'vitest'
import type { FaultPlan } from './index.ts'
import { useOfflineLiveServer } from './test-support.ts'

const offline = useOfflineLiveServer()

async function connectWith(faults: FaultPlan) {
  const client = await offline.connect({
    hearing: [{ text: 'one two three', startMs: 0, endMs: 300 }],
    faults,
  })
  await client.start()
  return client
}

describe('fault injection', () => {
  it('drops the connection without a close frame after N events', async () => {
    const client = await connectWith({ disconnect: { afterEvents: 2 } })
    client.sendAudio(1_000)
    expect(await client.waitForClose()).toBe(1006)
    expect(client.frames).toHaveLength(2)
    expect(client.events.some((event) => event.type === 'session.closed')).toBe(false)
  })

  it('drops the connection at a point on the audio clock', async () => {
    const client = await connectWith({ disconnect: { atAudioMs: 200 } })
    client.sendAudio(1_000)
    expect(await client.waitForClose()).toBe(1006)
    // 'one' and ' two' end before 200 ms; ' three' ends at 300 ms and is never heard.
    expect(client.events.filter((event) => event.type === 'session.input_transcript.delta')).toHaveLength(2)
  })

  it('sends a malformed frame', async () => {
    const client = await connectWith({ malformedFrame: { afterEvents: 1, payload: '{"type": "sess' } })
    await client.waitFor(() => client.frames.length >= 2, 'second frame')
    expect(client.frames[1]).toBe('{"type": "sess')
  })

  it('sends an error event the client did not cause, and the session keeps running', async () => {
    const client = await connectWith({
      errorEvent: { atAudioMs: 100, code: 'server_error', message: 'boom' },
    })
    client.sendAudio(500)
    const error = await client.waitFor((event) => event.type === 'error')
    expect(error.error).toEqual({ type: 'server_error', code: 'server_error', message: 'boom' })
    expect(error.client_event_id).toBeUndefined()
    await client.waitFor((event) => event.type === 'session.input_transcript.delta' && event.end_ms === 300)
  })

  it.each(['expired', 'connection_lost'] as const)(
    'closes from the server side with reason %s',
    async (reason) => {
      const client = await connectWith({ serverClose: { atAudioMs: 400, reason } })
      client.sendAudio(1_000)
      const closed = await client.waitFor((event) => event.type === 'session.closed')
      expect(closed).toMatchObject({ reason, usage: { seconds: 0.4 } })
      expect(await client.waitForClose()).toBe(1000)
    },
  )

  it('never answers session.start when told to withhold session.started, and ignores what follows', async () => {
    const client = await offline.connect({ hearing: [], faults: { withholdSessionStarted: true } })
    client.send({ type: 'session.start', event_id: 'evt_start', session: { model: 'gpt-live-1' } })
    client.send({ type: 'session.input_audio.mute', event_id: 'probe' })
    client.sendText('not json')
    // A control session on the same server proves the frames above had time to be processed.
    const control = await connectWith({})
    control.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await control.waitFor((event) => event.client_event_id === 'sync')
    expect(client.frames).toEqual([])
    expect(client.closeCode).toBeNull()
  })

  it('never sends session.closed when told to withhold it', async () => {
    const client = await connectWith({ withholdSessionClosed: true })
    client.send({ type: 'session.close', event_id: 'bye' })
    client.send({ type: 'session.input_audio.mute', event_id: 'after' })
    await client.waitFor((event) => event.client_event_id === 'after')
    expect(client.events.some((event) => event.type === 'session.closed')).toBe(false)
    expect(client.closeCode).toBeNull()
  })

  it('delays appended acks by the given received-audio time', async () => {
    const client = await connectWith({ ackDelayMs: 1_000 })
    client.send({ type: 'session.thinking.append', event_id: 't', delegation_id: null, content: 'note' })
    client.sendAudio(900)
    client.send({ type: 'session.input_audio.mute', event_id: 'sync' })
    await client.waitFor((event) => event.client_event_id === 'sync')
    expect(client.events.some((event) => event.type === 'session.thinking.appended')).toBe(false)
    client.sendAudio(200)
    const ack = await client.waitFor((event) => event.type === 'session.thinking.appended')
    expect(ack).toMatchObject({ client_event_id: 't', start_ms: 0, end_ms: 4 })
  })

  it('refuses an invalid fault plan at registration, naming the field', () => {
    expect(() =>
      offline.server.registerSession('bad', {
        hearing: [],
        faults: { disconnect: { afterEvents: 1, atAudioMs: 5 } },
      }),
    ).toThrow(/faults\.disconnect: give exactly one of afterEvents or atAudioMs/)
  })
})
