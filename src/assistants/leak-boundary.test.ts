// The leak boundary, end to end: a scenario whose evaluator-only fields (expected answer, criteria, expected
// tools and state, golden path, procedure, caller goal/persona/agenda) and whose private business facts
// (availability overrides) all carry sentinel strings is run through the real harness path (visible view →
// plan → session.start → delegation → tools) in both architectures. A recording proxy between LiveWS and the
// offline server captures everything the client sent to GPT-Live; under client delegation the application's
// backend is recorded too: every handoff, tool output and answer of the offline backend, and every request
// body the OpenAI reference backend sends to the (loopback) Responses API. No sentinel may appear in any.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { SessionConfig } from '../live/index.ts'
import { simulationGoal } from '../scenarios/derived.ts'
import { parseDataset } from '../scenarios/load.ts'
import { type AssistantVisibleInput, assistantVisibleInput } from '../scenarios/visible.ts'
import { openOffline, outputTranscript, pumpSilenceUntil, sendSilence } from './assistant-session.fixtures.ts'
import {
  BACKEND_VARIANTS,
  type BackendVariant,
  recordedVariant,
  type SentinelStandIns,
  startRecordingProxy,
  startSentinelStandIns,
} from './leak-boundary.test-helpers.ts'
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
  expected.golden_path.steps = [mark('golden-step-1'), mark('golden-step-2')]
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
  simulation.persona.backchannels = [mark('backchannel')]
  for (const item of simulation.agenda) {
    item.commitment = mark(`commitment-${item.id}`)
    item.trigger_condition = mark(`trigger-${item.id}`)
    item.completion_condition = mark(`completion-${item.id}`)
    item.response_hint = mark(`hint-${item.id}`)
  }
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

let standIns: SentinelStandIns
beforeAll(async () => {
  standIns = await startSentinelStandIns(
    'check_availability',
    { date: '2026-08-07', time: '21:00', party_size: 6 },
    'A table for 6 on 2026-08-07 at 21:00 is not available.',
  )
})
afterAll(() => standIns.close())

async function runThroughProxy(visible: AssistantVisibleInput, variant: BackendVariant) {
  const { server, responsesApi } = standIns
  const application = recordedVariant(variant, responsesApi)
  const proxy = await startRecordingProxy(server.url)
  const { assistant, speech } = await openOffline(server, visible, application.architecture, {
    facts: privateFacts(),
    baseURL: proxy.baseURL,
  })
  assistant.sendAudio(speech)
  sendSilence(assistant, 1_000)
  const answered = () => outputTranscript(assistant.session.log.events).includes('is not available')
  const heardAnswer = await pumpSilenceUntil(assistant, answered)
  await assistant.waitForDelegatedWork()
  await assistant.close()
  await proxy.close()
  return { assistant, sent: proxy.sent, backendSaw: application.backendSaw(), heardAnswer }
}

/**
 * Evaluator-side key names of reference §1.5: none may show up in anything sent, even with harmless values
 * (their presence would mean an evaluator structure was serialized into a prompt or a frame). The procedure id
 * and the simulation goal are values, not keys: they are sentinels in the scenario above, so the SENTINEL check
 * covers them (the first test below makes sure they really are).
 */
const EVALUATOR_KEY_NAMES = [
  'availability_overrides',
  'expected_response',
  'expected_final_state',
  'expected_tool_args',
  'task_understanding',
  'initial_items',
] as const

const expectNoLeak = (texts: readonly string[]) => {
  for (const text of texts) {
    expect(text).not.toMatch(new RegExp(SENTINEL, 'i'))
    for (const key of EVALUATOR_KEY_NAMES) expect(text).not.toContain(key)
    expect(text).not.toContain('sop_')
  }
}

describe('leak boundary: nothing evaluator-only or private reaches GPT-Live or the application backend', () => {
  const scenario = sentinelScenario()
  const visible = assistantVisibleInput(scenario)

  test('the sentinel scenario really carries its sentinels outside the visible view', () => {
    const everything = JSON.stringify(scenario)
    expect(everything.match(new RegExp(SENTINEL, 'gi'))?.length ?? 0).toBeGreaterThan(25)
    for (const field of ['golden-step-1', 'commitment-', 'trigger-', 'completion-', 'backchannel']) {
      expect(everything).toContain(`${SENTINEL}-${field}`)
    }
    expect(JSON.stringify(visible)).not.toMatch(new RegExp(SENTINEL, 'i'))
  })

  test('the procedure id and the simulation goal are sentinels, so the sentinel check covers them', () => {
    expect(scenario.expected.procedure?.id).toMatch(new RegExp(`^${SENTINEL}-procedure$`, 'i'))
    expect(scenario.simulation_parameters?.goal).toBe(`${SENTINEL}-goal`)
    expect(simulationGoal(scenario)).toBe(`${SENTINEL}-goal`)
  })

  test('the no-leak check fails on each evaluator key name and on a sentinel in any case', () => {
    for (const planted of [...EVALUATOR_KEY_NAMES, 'leaksentinel-procedure', `{"note":"${SENTINEL}-goal"}`]) {
      expect(() => expectNoLeak(['{"type":"session.start"}', `{"instructions":"x ${planted} y"}`])).toThrow()
    }
    expect(() => expectNoLeak(['{"type":"session.start"}'])).not.toThrow()
  })

  test.each(BACKEND_VARIANTS)(
    '%s: no sent frame and no backend input contains a sentinel',
    async (variant) => {
      const { assistant, sent, backendSaw, heardAnswer } = await runThroughProxy(visible, variant)
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
      expectNoLeak(sent)
      expectNoLeak(backendSaw)
      expectNoLeak([JSON.stringify(assistant.delegations())])

      // Positive checks: session.start carries the authorized context and the history.
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
      if (variant === 'responses') {
        expect(session.delegation).toMatchObject({
          type: 'responses',
          responses: {
            instructions: expect.stringContaining('"business_facts": {"business_name": "Juniper Table"'),
          },
        })
        return
      }
      expect(session.delegation).toEqual({ type: 'client' })
      // The backend really was given the conversation (history and what the caller said) and the tool's output.
      const backendInput = backendSaw.join('\n')
      expect(backendInput).toContain('Hi, I called about a birthday dinner.')
      expect(backendInput).toContain('table for 6')
      expect(backendInput).toMatch(/\\?"available\\?": ?false/)
      if (variant === 'client, OpenAI reference backend') {
        expect(backendSaw).toHaveLength(2)
        const [first] = backendSaw.map(
          (body) => JSON.parse(body) as { instructions?: string; store?: boolean },
        )
        expect(first?.instructions).toContain('"business_facts": {"business_name": "Juniper Table"')
        expect(first?.store).toBe(false)
      }
    },
  )
})
