// The service against real GPT-Live events: openai's LiveWS (through LiveSession) talks to the offline GPT-Live
// server in client-delegation mode; a minimal relay in this test plays the connector (forwards the four event
// types, relays `live.send` into Live); the service runs the restaurant application with the offline backend.
// This pins that the events the Live server really emits pass the contract's schemas, and that the service's
// commentary is accepted by Live (acknowledged by its event_id) and spoken.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LiveSession } from '../../../live/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { ANSWER, CONFIG, REQUEST, streamUntil } from '../live-loopback.test-helpers.ts'
import { RestaurantOfflineBehaviour } from '../offline/restaurant-offline-behaviour.ts'
import { offlineRestaurantApplication } from './application.ts'
import { isForwardedLiveEventType, serviceMessageSchema } from './protocol/index.ts'
import { liveEvent, useServiceHarness } from './service.test-helpers.ts'

const harness = useServiceHarness()
let server: OfflineLiveServer
let live: LiveSession | undefined

beforeEach(async () => {
  server = await startOfflineLiveServer()
})
afterEach(async () => {
  await live?.dispose()
  await server.close()
})

describe('the service with real GPT-Live events', () => {
  it('answers a Live client delegation: tool evidence, commentary acknowledged and spoken, session.closed', async () => {
    server.registerSession('service-token', {
      hearing: [{ text: REQUEST, startMs: 200, endMs: 2_400 }],
      behaviour: new RestaurantOfflineBehaviour({ conversationContext: '', initialState: {} }),
    })
    const session = new LiveSession({
      apiKey: 'service-token',
      baseURL: server.baseURL,
      allowInsecureLoopback: true,
    })
    live = session
    const service = await harness.start({ application: offlineRestaurantApplication })
    const peer = await harness.connect(service)
    expect(await peer.configure()).toMatchObject({ type: 'session.ready' })

    // The relay: what a connector does, minus its bookkeeping.
    const forwarded: string[] = []
    session.subscribe(({ event }) => {
      if (!isForwardedLiveEventType(event.type) || peer.socket.readyState !== peer.socket.OPEN) return
      forwarded.push(event.type)
      peer.send(liveEvent(event))
    })
    peer.socket.on('message', (data) => {
      const frame = serviceMessageSchema.parse(JSON.parse(data.toString()))
      if (frame.type === 'live.send') session.send(frame.event)
    })

    await session.start(CONFIG)
    const events = () => session.log.events.map((received) => received.event)
    const spoken = () =>
      events()
        .flatMap((event) => (event.type === 'session.output_transcript.delta' ? [event.delta] : []))
        .join('')
    expect(await streamUntil(session, () => spoken().includes(ANSWER))).toBe(true)

    const sends = peer.frames.flatMap((frame) => (frame.type === 'live.send' ? [frame.event] : []))
    expect(sends.map((send) => send.content).join('')).toBe(ANSWER)
    const appended = events().find((event) => event.type === 'session.commentary.appended')
    expect(appended).toMatchObject({ client_event_id: sends[0]?.event_id })
    const inner = peer.frames.flatMap((frame) => (frame.type === 'assistant.event' ? [frame.event] : []))
    expect(inner.map((event) => event.type)).toEqual([
      'client_delegation.handoff',
      'tool.called',
      'tool.completed',
      // The backend's completed response with its usage (the offline backend's estimate).
      'response.completed',
      'client_delegation.completed',
    ])
    expect(String(inner[0]?.transcript)).toContain(`USER: ${REQUEST}`)
    expect(inner[2]).toMatchObject({
      tool_execution: { name: 'check_availability', status: 'completed' },
      application_state: {},
    })
    expect(forwarded).toContain('session.input_transcript.delta')
    expect(forwarded).toContain('session.delegation.created')

    const closing = peer.until((frame) => frame.type === 'session.closed')
    await session.close()
    expect(await closing).toEqual({ type: 'session.closed' })
    expect(await peer.closed).toBe(1000)
  })
})
