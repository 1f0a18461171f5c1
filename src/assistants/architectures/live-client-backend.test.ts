// The live client backend over loopback: a GPT-Live session on the offline server delegates to the client,
// the controller's OpenAI reference backend asks the test Responses route (which scripts a tool call, then an
// answer), the tool runs in this scenario's own application, and the answer goes back as commentary.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { architectureFor } from '../../phases/engine/architecture-choice.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { responsesRoute } from '../../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../../testing/responses-server/server.ts'
import { loadSuiteSettings } from '../../vitest/settings.ts'
import {
  models,
  openOffline,
  outputTranscript,
  pumpSilenceUntil,
  visibleRequest,
} from '../assistant-session.fixtures.ts'
import { clientBackendPrompt } from '../client/prompts/prompts.ts'
import { restaurantToolDefinitions } from '../client/tools/resources.ts'
import { AUTHORIZED_CONTEXT_HEADING } from '../frontend/index.ts'
import { clientDelegation } from './client.ts'
import { liveClientBackend } from './live-client-backend.ts'

const RESPONSES_KEY = 'sk-test-responses-key-0123456789'
const GENERAL_KEY = 'sk-test-general-key-0123456789'
const ANSWER = 'Your table for four under Alvarez is booked for August 12 at 7 p.m., reference R-001.'
const BOOKING = { date: '2026-08-12', time: '19:00', party_size: 4, guest_name: 'Alvarez' }

const credentials = (keys: { openai?: string; responses?: string }) => ({
  credentials: {
    openai_api_key: keys.openai ?? null,
    responses_api_key: keys.responses ?? null,
    client_assistant_token: null,
  },
})

let live: OfflineLiveServer
let openai: ResponsesServer
beforeAll(async () => {
  live = await startOfflineLiveServer()
  openai = await startResponsesServer({
    routes: {
      // First request: book the table; second (after the tool output): the answer.
      'POST /v1/responses': responsesRoute({
        respond: (request) =>
          Array.isArray(request.input) && request.input.some((item) => item.type === 'function_call_output')
            ? { output: [{ type: 'message', text: ANSWER }] }
            : {
                output: [
                  { type: 'function_call', name: 'create_reservation', arguments: JSON.stringify(BOOKING) },
                ],
              },
      }),
    },
  })
})
afterAll(async () => {
  await Promise.all([live.close(), openai.close()])
})

describe('liveClientBackend', () => {
  test('delegated work runs on the OpenAI reference backend with the plan, the client tools and this scenario’s runtime', async () => {
    const before = openai.requestsTo('POST', '/v1/responses').length
    const backend = liveClientBackend(credentials({ openai: GENERAL_KEY, responses: RESPONSES_KEY }), {
      baseURL: openai.baseURL,
    })
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const { assistant, speech } = await openOffline(live, visible, clientDelegation(backend))
    assistant.sendAudio(speech)
    const spoken = () => outputTranscript(assistant.session.log.events).includes('reference R-001')
    expect(await pumpSilenceUntil(assistant, spoken)).toBe(true)
    await assistant.waitForDelegatedWork()
    await assistant.close()

    const requests = openai.requestsTo('POST', '/v1/responses').slice(before)
    expect(requests).toHaveLength(2)
    for (const request of requests) {
      // The dedicated Responses key wins over the general one.
      expect(request.headers.authorization).toBe(`Bearer ${RESPONSES_KEY}`)
      const body = request.body as Record<string, unknown>
      expect(body).toMatchObject({
        model: models.backendModel,
        instructions: assistant.plan.backendInstructions,
        reasoning: { effort: models.backendReasoningEffort },
        max_output_tokens: models.backendMaxOutputTokens,
        store: false,
        stream: true,
      })
      expect((body.tools as { name: string }[]).map((tool) => tool.name)).toEqual(
        restaurantToolDefinitions().map((tool) => tool.name),
      )
    }
    // The client copy's backend prompt plus the authorized context: never sent to GPT-Live.
    const instructions = assistant.plan.backendInstructions
    expect(instructions.startsWith(`${clientBackendPrompt()}${AUTHORIZED_CONTEXT_HEADING}`)).toBe(true)
    expect(JSON.stringify(assistant.sessionConfig)).not.toContain(clientBackendPrompt())

    // The tool ran in this scenario's own application, recorded like any other execution.
    expect(assistant.tools.executions()).toEqual([
      expect.objectContaining({ name: 'create_reservation', status: 'completed' }),
    ])
    expect(JSON.stringify(assistant.tools.snapshot())).toContain('Alvarez')
    const delegations = assistant.delegations()
    if (delegations.architecture !== 'client') throw new Error('expected client delegation records')
    expect(delegations.records.commentary).toEqual([
      expect.objectContaining({ delegationId: delegations.records.delegationIds[0], status: 'accepted' }),
    ])
  })

  test('falls back to OPENAI_API_KEY when no Responses key is set', async () => {
    const before = openai.requestsTo('POST', '/v1/responses').length
    const backend = liveClientBackend(credentials({ openai: GENERAL_KEY }), { baseURL: openai.baseURL })
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const { assistant, speech } = await openOffline(live, visible, clientDelegation(backend))
    assistant.sendAudio(speech)
    expect(await pumpSilenceUntil(assistant, () => openai.requests.length > before + 1)).toBe(true)
    await assistant.waitForDelegatedWork()
    await assistant.close()
    const [first] = openai.requestsTo('POST', '/v1/responses').slice(before)
    expect(first?.headers.authorization).toBe(`Bearer ${GENERAL_KEY}`)
  })

  test('without any key it refuses up front and names both variables', () => {
    expect(() => liveClientBackend(credentials({}), { baseURL: openai.baseURL })).toThrow(
      /OPENAI_RESPONSES_API_KEY or OPENAI_API_KEY/,
    )
  })
})

describe('architectureFor client', () => {
  const settingsIn = (mode: 'live' | 'offline') =>
    loadSuiteSettings('crawl', 'specs/crawl/config.toml', {
      env: { LIVE_EVALS_MODE: mode, OPENAI_API_KEY: GENERAL_KEY },
    })

  test('offline it answers with the deterministic offline backend: nothing reaches the Responses API', async () => {
    const before = openai.requestsTo('POST', '/v1/responses').length
    const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
    const { assistant, speech } = await openOffline(
      live,
      visible,
      architectureFor('client', settingsIn('offline')),
    )
    assistant.sendAudio(speech)
    const booked = () => assistant.tools.executions().length > 0
    expect(await pumpSilenceUntil(assistant, booked)).toBe(true)
    await assistant.waitForDelegatedWork()
    await assistant.close()
    expect(openai.requestsTo('POST', '/v1/responses').length).toBe(before)
  })

  test('live it delegates to the Responses API (here the loopback server named by OPENAI_BASE_URL)', async () => {
    vi.stubEnv('OPENAI_BASE_URL', openai.baseURL)
    try {
      const before = openai.requestsTo('POST', '/v1/responses').length
      const visible = visibleRequest('Could you book a table under Alvarez on August 12 at 7 p.m. for four?')
      const { assistant, speech } = await openOffline(
        live,
        visible,
        architectureFor('client', settingsIn('live')),
      )
      assistant.sendAudio(speech)
      const asked = () => openai.requestsTo('POST', '/v1/responses').length > before
      expect(await pumpSilenceUntil(assistant, asked)).toBe(true)
      await assistant.waitForDelegatedWork()
      await assistant.close()
      expect(assistant.tools.executions()).toEqual([
        expect.objectContaining({ name: 'create_reservation', status: 'completed' }),
      ])
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
