// Client delegation end to end over loopback: openai's LiveWS (through LiveSession) talks to the offline
// GPT-Live server in client-delegation mode; the server hears the caller and delegates; our controller runs
// the offline backend, whose tool runs on the scenario's executor; the answer goes back as commentary, the
// server acknowledges it by client_event_id and speaks it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LiveSession } from '../../../live/index.ts'
import {
  type OfflineLiveServer,
  type OfflineSessionScript,
  startOfflineLiveServer,
} from '../../../testing/live-server/index.ts'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import type { ObservationEvent } from '../backend/application-backend.ts'
import { restaurantOfflineBackend } from '../backend/offline-backend.ts'
import { runtimeToolCallback } from '../backend/tool-callback.ts'
import { ANSWER, CONFIG, REQUEST, streamUntil } from '../live-loopback.test-helpers.ts'
import { RestaurantOfflineBehaviour } from '../offline/restaurant-offline-behaviour.ts'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import { ClientDelegationController } from './client-delegation-controller.ts'

let server: OfflineLiveServer
let session: LiveSession | undefined

beforeEach(async () => {
  server = await startOfflineLiveServer()
})
afterEach(async () => {
  await session?.dispose()
  await server.close()
})

/**
 * Registers `token` with the offline server (the restaurant behaviour over an empty context and state), opens a
 * LiveSession on it, and wires a controller whose offline backend runs tools on a fresh executor.
 */
function connectClientDelegation(
  token: string,
  script: Pick<OfflineSessionScript, 'hearing' | 'acknowledgement'>,
  emit?: (event: ObservationEvent) => void,
) {
  server.registerSession(token, {
    ...script,
    behaviour: new RestaurantOfflineBehaviour({ conversationContext: '', initialState: {} }),
  })
  const live = new LiveSession({ apiKey: token, baseURL: server.baseURL, allowInsecureLoopback: true })
  session = live
  const runtime = new ToolRuntime(new RestaurantTools())
  const backend = restaurantOfflineBackend({
    authorizedContext: '',
    initialState: {},
    callTool: runtimeToolCallback(runtime),
  })
  const controller = new ClientDelegationController({
    backend,
    sendToLive: (event) => live.send(event) !== null,
    ...(emit === undefined ? {} : { emit }),
  })
  live.subscribe(({ event }) => controller.observe(event))
  return { live, runtime, controller }
}

describe('client delegation over loopback', () => {
  it('delegates, runs the tool on the executor, publishes commentary that the server acknowledges and speaks', async () => {
    const observed: ObservationEvent[] = []
    const { live, runtime, controller } = connectClientDelegation(
      'client-token',
      { hearing: [{ text: REQUEST, startMs: 200, endMs: 2_400 }], acknowledgement: 'One moment.' },
      (event) => observed.push(event),
    )
    const events = () => live.log.events.map((received) => received.event)

    await live.start(CONFIG)
    const delegated = await streamUntil(live, () =>
      events().some((e) => e.type === 'session.delegation.created'),
    )
    expect(delegated).toBe(true)
    await controller.wait()

    const created = events().find((e) => e.type === 'session.delegation.created')
    const delegationId = created?.type === 'session.delegation.created' ? created.delegation.id : null
    expect(controller.delegationIds).toEqual([delegationId])
    const handoff = observed.find((event) => event.type === 'client_delegation.handoff')
    expect(JSON.stringify(handoff)).toContain(`USER: ${REQUEST}`)
    expect(runtime.executions()).toEqual([
      expect.objectContaining({ call_id: 'call_offline_1', name: 'check_availability', status: 'completed' }),
    ])

    const [commentary] = controller.commentary()
    expect(commentary).toMatchObject({ delegationId, content: ANSWER, status: 'sent' })
    const spoken = () =>
      events()
        .flatMap((e) => (e.type === 'session.output_transcript.delta' ? [e.delta] : []))
        .join('')
    expect(await streamUntil(live, () => spoken().includes(ANSWER))).toBe(true)

    const appended = events().find((e) => e.type === 'session.commentary.appended')
    expect(appended).toMatchObject({ client_event_id: commentary?.eventId })
    expect(controller.commentary()[0]?.status).toBe('accepted')
    expect(spoken()).toBe(`One moment.${ANSWER}`)
    expect(observed.at(-1)).toMatchObject({
      type: 'client_delegation.completed',
      delegation_id: delegationId,
      text: ANSWER,
    })

    const outcome = await live.close()
    expect(outcome).toMatchObject({ type: 'closed', reason: 'close_requested' })
    await controller.close()
    expect(controller.error).toBeNull()
  })

  it('hands a follow-up delegation only the conversation since the previous one', async () => {
    const second = 'Is a patio table for 2 available on August 8 at 6 p.m.?'
    const handoffs: ObservationEvent[] = []
    const hearing = [
      { text: REQUEST, startMs: 200, endMs: 2_400 },
      { text: second, startMs: 12_000, endMs: 14_000 },
    ]
    const { live, runtime, controller } = connectClientDelegation('follow-up-token', { hearing }, (event) => {
      if (event.type === 'client_delegation.handoff') handoffs.push(event)
    })
    await live.start(CONFIG)
    const bothAccepted = () =>
      controller.commentary().filter((record) => record.status === 'accepted').length === 2
    expect(await streamUntil(live, bothAccepted)).toBe(true)
    await controller.wait()

    const [first, next] = handoffs.map(
      (event) => event.handoff as { follow_up: boolean; transcript_srt: string },
    )
    expect(first?.follow_up).toBe(false)
    expect(first?.transcript_srt).toContain(`USER: ${REQUEST}`)
    expect(next?.follow_up).toBe(true)
    expect(next?.transcript_srt).not.toContain(REQUEST)
    expect(next?.transcript_srt).toContain(`ASSISTANT: ${ANSWER}`)
    expect(next?.transcript_srt).toContain(`USER: ${second}`)
    expect(runtime.executions().map((record) => record.arguments)).toEqual([
      { date: '2026-08-07', time: '19:00', party_size: 4 },
      { date: '2026-08-08', time: '18:00', party_size: 2, seating: 'patio' },
    ])
    await live.close()
    await controller.close()
    expect(controller.error).toBeNull()
  })

  it('fails the delegation when the session closes before Live took the commentary', async () => {
    const { live, controller } = connectClientDelegation('closing-token', {
      hearing: [{ text: REQUEST, startMs: 200, endMs: 2_400 }],
    })
    await live.start(CONFIG)
    expect(await streamUntil(live, () => controller.commentary().length === 1)).toBe(true)
    await controller.wait()
    // No more audio: the server's clock never reaches the ack, so the close answers the append with an error.
    await live.close()
    expect(controller.commentary()[0]?.status).toBe('rejected')
    await expect(controller.wait()).rejects.toThrow('Client delegation failed (CommentaryRejectedError)')
    await controller.close()
  })
})
