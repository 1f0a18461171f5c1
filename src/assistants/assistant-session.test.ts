// The assistant under test over loopback, through openai's LiveWS, against the strict offline GPT-Live server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { clientDelegation, responsesDelegation } from './architectures/index.ts'
import {
  models,
  openOffline,
  outputTranscript,
  pumpSilenceUntil,
  sendSilence,
  visibleRequest,
} from './assistant-session.fixtures.ts'
import { openAssistantUnderTest, registerOfflineAssistant } from './assistant-session.ts'
import { restaurantApplication } from './client/application.ts'
import { startScriptedLivePeer } from './responses/delegation/scripted-live-peer.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

describe('the assistant under test against the offline GPT-Live server', () => {
  test('a plain turn: the hours question is answered directly, with transcript and audio', async () => {
    const visible = visibleRequest('What are your hours?')
    const { assistant, speech } = await openOffline(server, visible, responsesDelegation())
    assistant.sendAudio(speech)
    sendSilence(assistant, 3_000)
    const outcome = await assistant.close()
    expect(outcome).toMatchObject({ type: 'closed', reason: 'close_requested' })
    const events = assistant.session.log.events
    expect(outputTranscript(events).trim()).toBe('Our restaurant hours are 11:00 a.m. to 10:00 p.m. daily.')
    expect(events.some(({ event }) => event.type === 'session.output_audio.delta')).toBe(true)
    expect(events.some(({ event }) => event.type === 'session.delegation.created')).toBe(false)
    expect(assistant.tools.executions()).toEqual([])
    expect(assistant.started.session.delegation).toMatchObject({ type: 'responses' })
  })

  test('Responses delegation: function call, execution, result injection and the spoken final answer', async () => {
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const { assistant, speech } = await openOffline(server, visible, responsesDelegation())
    assistant.sendAudio(speech)
    sendSilence(assistant, 1_000)
    await assistant.session.waitForEvent(
      (event) => event.type === 'response.event' && event.event.type === 'response.completed',
      { timeoutMs: 5_000 },
    )
    await assistant.waitForDelegatedWork()
    // The offline backend answers the continuation with the final message, which the voice model speaks.
    await assistant.session.waitForEvent(
      (event) =>
        event.type === 'response.event' &&
        event.event.type === 'response.output_item.done' &&
        (event.event.item as { type?: string }).type === 'message',
      { timeoutMs: 5_000 },
    )
    sendSilence(assistant, 6_000)
    await assistant.close()

    const reservation = {
      reservation_id: 'R-001',
      guest_name: 'Alvarez',
      date: '2026-08-12',
      time: '19:00',
      party_size: 4,
      cancelled: false,
    }
    expect(assistant.tools.executions()).toEqual([
      expect.objectContaining({
        name: 'create_reservation',
        status: 'completed',
        output: expect.objectContaining({ ok: true, reservation_id: 'R-001' }),
      }),
    ])
    expect(assistant.tools.snapshot()).toMatchObject({
      reservations: [reservation],
      reservation_created: true,
    })
    // The scenario's own state copy: the visible input and the recorded initial state are untouched.
    expect(visible.initialState).toEqual({ reservations: [], authorized_reservation_ids: [] })
    expect(assistant.tools.initialState).toEqual({ reservations: [], authorized_reservation_ids: [] })
    expect(outputTranscript(assistant.session.log.events)).toContain(
      'Your reservation for Alvarez and 4 guests is confirmed on 2026-08-12 at 19:00.',
    )
    const delegations = assistant.delegations()
    expect(delegations.architecture).toBe('responses')
    if (delegations.architecture !== 'responses') return
    expect(delegations.records.delegations).toHaveLength(1)
    expect(delegations.records.delegations[0]?.responseIds).toHaveLength(2)
    expect(delegations.records.publications).toEqual([expect.objectContaining({ outcome: 'published' })])
    expect(delegations.records.backendUsage.every((entry) => entry.usage !== null)).toBe(true)
  })

  test('a refused cancellation inside a session is a failed execution whose error reaches the model', async () => {
    // R-001 is authorized but does not exist: the executor refuses, the runtime records the failure.
    const visible = visibleRequest('Please cancel reservation R-001.', {
      initialState: { reservations: [], authorized_reservation_ids: ['R-001'] },
    })
    const { assistant, speech } = await openOffline(server, visible, responsesDelegation())
    assistant.sendAudio(speech)
    sendSilence(assistant, 1_000)
    await assistant.session.waitForEvent(
      (event) => event.type === 'response.event' && event.event.type === 'response.completed',
      { timeoutMs: 5_000 },
    )
    await assistant.waitForDelegatedWork()
    sendSilence(assistant, 4_000)
    await assistant.close()
    expect(assistant.tools.executions()).toEqual([
      {
        call_id: expect.any(String),
        name: 'cancel_reservation',
        arguments: { reservation_id: 'R-001' },
        status: 'failed',
        output: { ok: false, error: 'Reservation R-001 does not exist' },
      },
    ])
    expect(outputTranscript(assistant.session.log.events)).toContain(
      "I couldn't complete that restaurant request.",
    )
  })

  test('client delegation: the application answers with commentary carrying the delegation id', async () => {
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const { assistant, speech } = await openOffline(server, visible, clientDelegation())
    expect(assistant.sessionConfig.delegation).toEqual({ type: 'client' })
    assistant.sendAudio(speech)
    sendSilence(assistant, 1_000)
    await assistant.session.waitForEvent((event) => event.type === 'session.delegation.created', {
      timeoutMs: 5_000,
    })
    const answered = () =>
      outputTranscript(assistant.session.log.events).includes('is confirmed on 2026-08-12 at 19:00')
    expect(await pumpSilenceUntil(assistant, answered)).toBe(true)
    await assistant.waitForDelegatedWork()
    await assistant.close()

    expect(assistant.tools.executions()).toEqual([
      expect.objectContaining({ name: 'create_reservation', status: 'completed' }),
    ])
    const delegations = assistant.delegations()
    if (delegations.architecture !== 'client') throw new Error('expected client delegation records')
    const [delegationId] = delegations.records.delegationIds
    expect(delegations.records.delegationIds).toHaveLength(1)
    expect(delegations.records.commentary).toEqual([
      expect.objectContaining({ delegationId, status: 'accepted' }),
    ])
    // The strict server rejected nothing: in particular no response.* command was sent under client delegation.
    const errors = assistant.session.log.events.filter(({ event }) => event.type === 'error')
    expect(errors).toEqual([])
  })

  test("client delegation: a backend that fails still gives the voice model something to say (the application's own words)", async () => {
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const failing = () => ({
      run: () => Promise.reject(new Error('503 Service Unavailable')),
      close: () => Promise.resolve(),
    })
    const application = {
      ...restaurantApplication(),
      backendFailureAnswer: 'Our booking line is down; nothing was booked.',
    }
    const { assistant, speech } = await openOffline(server, visible, clientDelegation(failing, application))
    assistant.sendAudio(speech)
    const told = () => outputTranscript(assistant.session.log.events).includes('Our booking line is down')
    expect(await pumpSilenceUntil(assistant, told)).toBe(true)
    await assistant.waitForDelegatedWork().catch(() => undefined)
    await assistant.close()
    expect(assistant.tools.executions()).toEqual([])
    const delegations = assistant.delegations()
    if (delegations.architecture !== 'client') throw new Error('expected client delegation records')
    expect(delegations.records.commentary).toEqual([
      expect.objectContaining({
        content: 'Our booking line is down; nothing was booked.',
        status: 'accepted',
      }),
    ])
    // The failure itself stays on the evaluator's side, by class only.
    expect(delegations.records.events).toContainEqual(
      expect.objectContaining({
        type: 'error',
        error: expect.objectContaining({ code: 'client_delegation_failed' }),
      }),
    )
  })

  test('a session that ends underneath the assistant ends its delegated work, so no wait hangs', async () => {
    const peer = await startScriptedLivePeer()
    const visible = visibleRequest('Is there a table for 2 on August 12 at 7 p.m.?')
    const assistant = await openAssistantUnderTest({
      visibleInput: visible,
      architecture: responsesDelegation(),
      models,
      connection: { apiKey: 'peer-token', baseURL: peer.baseURL, allowInsecureLoopback: true },
    })
    const nested = (event: Record<string, unknown>) =>
      peer.push({ type: 'response.event', delegation_id: 'item_deleg_1', event })
    peer.push({
      type: 'session.delegation.created',
      offset_ms: 0,
      delegation: { id: 'item_deleg_1', type: 'delegation', target: 'responses', response_id: 'resp_1' },
    })
    nested({ type: 'response.created', response: { id: 'resp_1', output: [] } })
    nested({
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        type: 'function_call',
        call_id: 'call_1',
        name: 'check_availability',
        arguments: JSON.stringify({ date: '2026-08-12', time: '19:00', party_size: 2 }),
        status: 'completed',
      },
    })
    // The response never completes: the connection drops first.
    await assistant.session.waitForEvent(
      (event) => event.type === 'response.event' && event.event.type === 'response.output_item.done',
      { timeoutMs: 5_000 },
    )
    await peer.close()
    const outcome = await assistant.session.outcome
    expect(outcome).toMatchObject({ type: 'failed', error: { kind: 'unexpected_eof' } })
    await expect(assistant.waitForDelegatedWork()).rejects.toMatchObject({ kind: 'closed_with_pending_work' })
    expect(await assistant.close()).toBe(outcome)
  })

  test('close() closes once: a second call returns the same outcome', async () => {
    const { assistant } = await openOffline(
      server,
      visibleRequest('What are your hours?'),
      responsesDelegation(),
    )
    const first = assistant.close()
    expect(assistant.close()).toBe(first)
    expect(await first).toMatchObject({ type: 'closed' })
  })

  test("a pre-built application serves one session: its tools are the session's, a second session is refused", async () => {
    const visible = visibleRequest('What are your hours?')
    const application = responsesDelegation().createApplication(visible)
    const open = () =>
      openAssistantUnderTest({
        visibleInput: visible,
        architecture: responsesDelegation(),
        models,
        application,
        connection: {
          apiKey: registerOfflineAssistant(server, visible, responsesDelegation(), []),
          baseURL: server.baseURL,
          allowInsecureLoopback: true,
        },
      })
    const assistant = await open()
    expect(assistant.tools.initialState).toEqual(application.initialState)
    expect(assistant.tools.snapshot()).toEqual(application.snapshot())
    await assistant.close()
    await expect(open()).rejects.toThrow(/another session already used it; build a fresh one per session/)
  })

  test('business facts beside a pre-built application are refused (the application has its own)', async () => {
    const visible = visibleRequest('What are your hours?')
    await expect(
      openAssistantUnderTest({
        visibleInput: visible,
        architecture: responsesDelegation(),
        models,
        facts: {},
        application: responsesDelegation().createApplication(visible),
        connection: { apiKey: 'unused', baseURL: server.baseURL, allowInsecureLoopback: true },
      }),
    ).rejects.toThrow(/pass the business facts to createApplication/)
  })

  test('an application of the other architecture is refused, naming both copies', async () => {
    const visible = visibleRequest('What are your hours?')
    await expect(
      openAssistantUnderTest({
        visibleInput: visible,
        architecture: responsesDelegation(),
        models,
        application: clientDelegation().createApplication(visible),
        connection: { apiKey: 'unused', baseURL: server.baseURL, allowInsecureLoopback: true },
      }),
    ).rejects.toThrow(/it is the client copy, not the responses one/)
  })
})
