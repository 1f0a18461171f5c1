// The leak boundary, end to end: a scenario whose evaluator-only fields (expected answer, criteria, expected
// tools and state, procedure, caller goal/persona/agenda) and whose private business facts (availability
// overrides) all carry sentinel strings is run through the real harness path (visible view → plan →
// session.start → delegation → tools) in both architectures. A recording proxy between LiveWS and the offline
// server captures everything the client sent; no sentinel may appear in it.
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { syntheticSpeech } from '../audio/synthetic-voice.ts'
import type { SessionConfig } from '../live/index.ts'
import { parseDataset } from '../scenarios/load.ts'
import { type AssistantVisibleInput, assistantVisibleInput } from '../scenarios/visible.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { models, outputTranscript, pumpSilenceUntil, sendSilence } from './assistant-session.fixtures.ts'
import {
  offlineClientController,
  openAssistantUnderTest,
  registerOfflineAssistant,
} from './assistant-session.ts'
import type { Architecture } from './frontend/index.ts'
import { restaurantFacts } from './responses/tools/resources.ts'

const SENTINEL = 'LEAKSENTINEL'
const runDataset = fileURLToPath(new URL('../../scenarios/run/restaurant.json', import.meta.url))

/** A valid RUN scenario whose every evaluator-only string is a sentinel. */
function sentinelScenario() {
  // Raw scenario JSON edited in place before validation; the dataset parser checks the result.
  // biome-ignore lint/suspicious/noExplicitAny: free-form edits of raw JSON, validated right after
  const raw = JSON.parse(readFileSync(runDataset, 'utf8')) as { scenarios: any[] }
  const scenario = structuredClone(raw.scenarios[0])
  const mark = (what: string) => `${SENTINEL}-${what}`
  scenario.id = 'leak_boundary_case'
  scenario.title = mark('title')
  scenario.tags = [mark('tag').toLowerCase()]
  scenario.input = {
    text: 'Do you have a table for 6 on August 7 at 9 p.m.?',
    context: {
      summary: 'The caller phoned earlier about a birthday dinner.',
      history: [
        { role: 'user', text: 'Hi, I called about a birthday dinner.' },
        { role: 'assistant', text: 'Happy to help with that.' },
      ],
    },
  }
  scenario.application = { initial_state: { reservations: [], authorized_reservation_ids: ['R-001'] } }
  const expected = scenario.expected
  expected.answer = mark('answer')
  expected.criteria = [mark('criterion-1'), mark('criterion-2')]
  expected.tools.required = [
    {
      name: 'check_availability',
      arguments: { date: '2026-08-07', time: '21:00', party_size: 6, seating: mark('tool-arg') },
    },
  ]
  expected.tools.prohibited = [
    { name: mark('prohibited-tool').toLowerCase(), arguments: { note: mark('prohibited-arg') } },
  ]
  expected.state = { note: mark('state') }
  expected.procedure.id = mark('procedure').toLowerCase()
  for (const step of expected.procedure.steps) {
    if (step.kind === 'state') step.arguments = { note: mark('procedure-state') }
    if (step.kind === 'tool') step.arguments = { ...step.arguments, guest_name: mark('procedure-arg') }
  }
  const simulation = scenario.simulation_parameters
  simulation.goal = mark('goal')
  simulation.expectations = [mark('expectation')]
  simulation.known_facts = { ...simulation.known_facts, guest_name: mark('known-fact') }
  simulation.persona.description = mark('persona')
  simulation.persona.speech_instructions = mark('speech-instructions')
  for (const item of simulation.agenda) item.response_hint = mark(`hint-${item.id}`)
  const dataset = parseDataset(
    JSON.stringify({ schema_version: '1.0', scenarios: [scenario] }),
    'leak-boundary.json',
  )
  const [loaded] = dataset.scenarios
  if (loaded === undefined) throw new Error('the sentinel dataset lost its scenario')
  return loaded
}

/** Business facts whose private overrides carry a sentinel (and still decide availability in the executor). */
const privateFacts = () => ({
  ...restaurantFacts(),
  availability_overrides: [
    { date: '2026-08-07', time: '21:00', party_size: 6, available: false, note: `${SENTINEL}-override` },
  ],
})

interface RecordingProxy {
  baseURL: string
  /** Every text frame the client sent, and the upgrade request's headers, as strings. */
  sent: string[]
  close(): Promise<void>
}

/** A WebSocket proxy in front of the offline server that records what the client sends. */
async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const sent: string[] = []
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  wss.on('connection', (client, request) => {
    sent.push(JSON.stringify({ url: request.url, headers: request.headers }))
    const upstream = new WebSocket(target, {
      headers: { authorization: request.headers.authorization ?? '' },
    })
    const queued: string[] = []
    upstream.on('open', () => {
      for (const frame of queued.splice(0)) upstream.send(frame)
    })
    client.on('message', (data) => {
      const frame = data.toString()
      sent.push(frame)
      if (upstream.readyState === WebSocket.OPEN) upstream.send(frame)
      else queued.push(frame)
    })
    upstream.on('message', (data) => client.send(data.toString()))
    upstream.on('close', (code) => client.close(code === 1005 || code === 1006 ? 1000 : code))
    client.on('close', () => upstream.close())
  })
  const { port } = wss.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    sent,
    close() {
      for (const client of wss.clients) client.terminate()
      return new Promise((resolve) => wss.close(() => resolve()))
    },
  }
}

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

async function runThroughProxy(visible: AssistantVisibleInput, architecture: Architecture) {
  const proxy = await startRecordingProxy(server.url)
  const speech = syntheticSpeech(visible.inputText)
  const endMs = Math.round((speech.length / 24_000) * 1000)
  const token = registerOfflineAssistant(server, visible, architecture, [
    { text: visible.inputText, startMs: 0, endMs },
  ])
  const assistant = await openAssistantUnderTest({
    visibleInput: visible,
    architecture,
    models,
    facts: privateFacts(),
    connection: { apiKey: token, baseURL: proxy.baseURL, allowInsecureLoopback: true },
    ...(architecture === 'client' ? { clientController: offlineClientController } : {}),
  })
  assistant.sendAudio(speech)
  sendSilence(assistant, 1_000)
  const answered = () => outputTranscript(assistant.session.log.events).includes('is not available')
  const heardAnswer = await pumpSilenceUntil(assistant, answered)
  await assistant.waitForDelegatedWork()
  await assistant.close()
  await proxy.close()
  return { assistant, sent: proxy.sent, heardAnswer }
}

describe('leak boundary: nothing evaluator-only or private reaches GPT-Live', () => {
  const scenario = sentinelScenario()
  const visible = assistantVisibleInput(scenario)

  test('the sentinel scenario really carries its sentinels outside the visible view', () => {
    const everything = JSON.stringify(scenario)
    expect(everything.match(new RegExp(SENTINEL, 'gi'))?.length ?? 0).toBeGreaterThan(15)
    expect(JSON.stringify(visible)).not.toMatch(new RegExp(SENTINEL, 'i'))
  })

  test.each(['responses', 'client'] as const)(
    '%s delegation: no sent frame contains a sentinel',
    async (architecture) => {
      const { assistant, sent, heardAnswer } = await runThroughProxy(visible, architecture)
      // The run was real: the private override decided availability through a tool, and the answer was spoken.
      expect(heardAnswer).toBe(true)
      expect(assistant.tools.executions()).toEqual([
        expect.objectContaining({
          name: 'check_availability',
          status: 'completed',
          output: expect.objectContaining({ available: false }),
        }),
      ])
      expect(sent.length).toBeGreaterThan(3)
      for (const frame of sent) {
        expect(frame).not.toMatch(new RegExp(SENTINEL, 'i'))
        expect(frame).not.toContain('availability_overrides')
        expect(frame).not.toContain('sop_')
      }

      // Positive check: session.start carries the authorized context and the history.
      const start = sent
        .map((frame) => JSON.parse(frame) as { type?: string; session?: SessionConfig })
        .find((frame) => frame.type === 'session.start')
      const session = start?.session
      if (session === undefined) throw new Error('no session.start frame was captured')
      expect(session.instructions).toContain(
        '## Authorized factual application context\n{"business_facts": {"business_name": "Juniper Table"',
      )
      expect(session.instructions).toContain(
        '"authorized_application_state": {"reservations": [], "authorized_reservation_ids": ["R-001"]}',
      )
      expect(session.instructions).toContain(
        '"previous_conversation_summary": "The caller phoned earlier about a birthday dinner."',
      )
      expect(session.input).toEqual([
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Hi, I called about a birthday dinner.' }],
        },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Happy to help with that.' }],
        },
      ])
      if (architecture === 'responses') {
        expect(session.delegation).toMatchObject({
          type: 'responses',
          responses: {
            instructions: expect.stringContaining('"business_facts": {"business_name": "Juniper Table"'),
          },
        })
      } else {
        expect(session.delegation).toEqual({ type: 'client' })
      }
    },
  )
})
