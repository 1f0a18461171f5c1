// Connector and reference service together, through the assistant session (contract §10 "End-to-end
// connector+service"): the offline GPT-Live server delegates, the connector forwards, the service answers.
// Pending right after the delegation, the commentary relayed to Live first, the completion emitted, and the
// observer's executions and snapshot equal the service's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { openOffline, pumpSilenceUntil, visibleRequest } from '../../assistant-session.fixtures.ts'
import {
  offlineRestaurantApplication,
  restaurantTools,
  type ServiceApplication,
} from '../../client/service/application.ts'
import { type ClientAssistantService, startClientAssistantService } from '../../client/service/service.ts'
import type { ToolExecutor } from '../../runtime/tool-executor.ts'
import { sessionConfigureFor } from './configure.ts'
import { type RemoteClientObservation, remoteClientDelegation } from './remote-client.ts'

const TOKEN = 'connector-service-token-0123456789abcdefg'
let live: OfflineLiveServer
let service: ClientAssistantService
const executors: ToolExecutor[] = []

beforeAll(async () => {
  live = await startOfflineLiveServer()
  const application: ServiceApplication = {
    tools(configure) {
      const executor = restaurantTools(configure)
      executors.push(executor)
      return executor
    },
    backend: offlineRestaurantApplication.backend,
  }
  service = await startClientAssistantService({
    token: TOKEN,
    env: {},
    application,
    acceptScenarioState: true,
  })
})
afterAll(async () => {
  await service.close()
  await live.close()
})

describe('connector and reference service', () => {
  it('pending from the delegation, commentary first, completion emitted, evidence equal to the service’s', async () => {
    const architecture = remoteClientDelegation({
      endpoint: service.url,
      token: TOKEN,
      allowInsecureLoopback: true,
      openAiKeys: {},
      sendScenarioState: true,
    })
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const application = architecture.createApplication(visible)
    const { assistant, speech } = await openOffline(live, visible, architecture)
    const sent: string[] = []
    assistant.session.onSent(({ event }) => {
      if (event.type !== 'session.input_audio.append') sent.push(event.type)
    })
    // A wait begun the moment the delegation arrives may end only after its commentary went to Live.
    let waitEndedAfterCommentary: boolean | null = null
    assistant.session.subscribe(({ event }) => {
      if (event.type !== 'session.delegation.created') return
      void assistant.waitForDelegatedWork().then(() => {
        waitEndedAfterCommentary = sent.includes('session.commentary.append')
      })
    })
    assistant.sendAudio(speech)
    const delegated = () =>
      (assistant.delegations().records as RemoteClientObservation).delegationIds.length > 0
    expect(await pumpSilenceUntil(assistant, delegated)).toBe(true)
    await assistant.waitForDelegatedWork()
    expect(waitEndedAfterCommentary).toBe(true)
    const records = assistant.delegations().records as RemoteClientObservation
    expect(records.toolEvidence).toBe('remote_service')
    expect(records.events.map((event) => event.type)).toEqual([
      'client_delegation.handoff',
      'tool.called',
      'tool.completed',
      // The backend's completed response with its usage (the offline backend's estimate).
      'response.completed',
      'client_delegation.completed',
    ])
    // The first command the evaluator sent after session.start was the relayed commentary.
    expect(sent.filter((type) => type !== 'session.input_audio.unmute')[0]).toBe('session.commentary.append')
    const serviceExecutor = executors.at(-1)
    expect(
      assistant.tools.executions().map(({ name, arguments: args, status }) => ({ name, args, status })),
    ).toEqual(
      serviceExecutor?.executions.map(({ name, arguments: args, status }) => ({ name, args, status })),
    )
    expect(assistant.tools.snapshot()).toEqual(serviceExecutor?.snapshot())
    expect(assistant.tools.snapshot()).not.toEqual(assistant.tools.initialState)
    expect(records.initialStateSource).toBe('service')
    expect(application.runtime.executions()).toEqual([])
    await assistant.close()
  })
})

describe('sessionConfigureFor', () => {
  const history = [
    {
      type: 'message' as const,
      role: 'user' as const,
      content: [{ type: 'input_text' as const, text: 'Hi' }],
    },
    { role: 'assistant' as const, content: [{ type: 'output_text' as const, text: 'Hello' }] },
    {
      type: 'message' as const,
      role: 'developer' as const,
      content: [{ type: 'input_text' as const, text: 'rules' }],
    },
  ]
  const visible = { initialState: { reservations: [] }, context: { summary: 'Earlier call.', history: [] } }

  it('sends the user and assistant history only, rebuilt, and nothing else without the opt-in', () => {
    expect(sessionConfigureFor(history, visible, { sendScenarioState: false })).toEqual({
      type: 'session.configure',
      initial_items: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello' }] },
      ],
    })
  })

  it('adds the state and the summary when opted in; a blank summary stays home', () => {
    expect(sessionConfigureFor([], visible, { sendScenarioState: true })).toEqual({
      type: 'session.configure',
      initial_items: [],
      application_state: { reservations: [] },
      conversation_summary: 'Earlier call.',
    })
    expect(
      sessionConfigureFor(
        [],
        { ...visible, context: { summary: '  ', history: [] } },
        { sendScenarioState: true },
      ),
    ).not.toHaveProperty('conversation_summary')
  })
})
