import { describe, expect, test } from 'vitest'
import type { AssistantVisibleInput } from '../../scenarios/visible.ts'
import { models } from '../assistant-session.fixtures.ts'
import { clientBackendPrompt, clientVoicePrompt } from '../client/prompts/prompts.ts'
import { bundledRows } from '../parity/bundled-datasets.ts'
import { responsesBackendPrompt, responsesVoicePrompt } from '../responses/prompts/prompts.ts'
import {
  AUTHORIZED_CONTEXT_HEADING,
  authorizedContext,
  buildAssistantPlan,
  buildSessionStart,
  historyInputItems,
  MAX_HISTORY_MESSAGES,
  parseAssistantModels,
  renderPythonJson,
} from './index.ts'

const visible = (overrides: Partial<AssistantVisibleInput> = {}): AssistantVisibleInput => ({
  scenarioId: 'frontend_case',
  interaction: 'single_turn',
  inputText: 'Please cancel R-001.',
  context: {
    summary: 'Guest Kim booked R-001 for Friday.',
    history: [
      { role: 'user', text: 'I booked under Kim.' },
      { role: 'assistant', text: 'I see R-001 under Kim.' },
    ],
  },
  initialState: { reservations: [], authorized_reservation_ids: ['R-001'] },
  ...overrides,
})

describe('authorized context rendering', () => {
  test('renders like Python json.dumps: spaced separators, ASCII escapes, key order kept', () => {
    expect(renderPythonJson({ b: [1, true, null], a: 'café 😀', n: 2.5 })).toBe(
      '{"b": [1, true, null], "a": "caf\\u00e9 \\ud83d\\ude00", "n": 2.5}',
    )
  })

  test('voice and backend instructions carry the prompt, the heading and the exact context JSON', () => {
    const plan = buildAssistantPlan(visible(), { architecture: 'responses', models })
    const context =
      '{"business_facts": {"business_name": "Juniper Table", "reference_year": 2026, "hours": ' +
      '"11:00 a.m. to 10:00 p.m. daily", "parking": "Complimentary parking is available in the adjacent ' +
      'restaurant lot."}, "authorized_application_state": {"reservations": [], "authorized_reservation_ids": ' +
      '["R-001"]}, "previous_conversation_summary": "Guest Kim booked R-001 for Friday."}'
    expect(plan.voiceInstructions).toBe(`${responsesVoicePrompt()}${AUTHORIZED_CONTEXT_HEADING}${context}`)
    expect(plan.backendInstructions).toBe(
      `${responsesBackendPrompt()}${AUTHORIZED_CONTEXT_HEADING}${context}`,
    )
    expect(plan.voiceInstructions).not.toContain('availability_overrides')
  })

  test('given facts: the plan keeps only their public part (overrides stay with the executor)', () => {
    const facts = {
      business_name: 'Juniper Table',
      hours: 'noon to midnight',
      availability_overrides: [{ date: '2026-08-07', available: false }],
    }
    const plan = buildAssistantPlan(visible(), { architecture: 'client', models, facts })
    expect(plan.context.business_facts).toEqual({ business_name: 'Juniper Table', hours: 'noon to midnight' })
    expect(plan.voiceInstructions).toContain('"hours": "noon to midnight"')
    expect(plan.voiceInstructions).not.toContain('availability_overrides')
    expect(plan.backendInstructions).not.toContain('2026-08-07')
  })

  test('facts that still hold the private overrides are refused, naming the scenario', () => {
    const facts = { business_name: 'Juniper Table', availability_overrides: [] }
    expect(() => authorizedContext(visible(), facts)).toThrow(
      /Scenario frontend_case: the business facts given to the assistant plan still hold the private availability_overrides/,
    )
  })

  test('a blank summary adds no previous_conversation_summary; no context at all is fine', () => {
    const blank = buildAssistantPlan(
      visible({ context: { summary: '  ', history: [{ role: 'user', text: 'hi' }] } }),
      { architecture: 'client', models },
    )
    expect(blank.context).not.toHaveProperty('previous_conversation_summary')
    const none = buildAssistantPlan(visible({ context: null }), {
      architecture: 'client',
      models,
    })
    expect(none.input).toEqual([])
    expect(none.voiceInstructions.startsWith(clientVoicePrompt())).toBe(true)
    expect(none.backendInstructions.startsWith(clientBackendPrompt())).toBe(true)
  })

  test('the plan holds copies: changing the visible state later does not change the plan', () => {
    const input = visible()
    const plan = buildAssistantPlan(input, { architecture: 'responses', models })
    ;(input.initialState.authorized_reservation_ids as string[]).push('R-999')
    expect(plan.context.authorized_application_state).toEqual({
      reservations: [],
      authorized_reservation_ids: ['R-001'],
    })
  })
})

describe('history input items', () => {
  test('user turns are input_text and assistant turns output_text, one part each, in order', () => {
    const plan = buildAssistantPlan(visible(), { architecture: 'responses', models })
    expect(plan.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'I booked under Kim.' }] },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'I see R-001 under Kim.' }],
      },
    ])
  })

  test('more than 128 messages is refused with the scenario and the field named', () => {
    const history = Array.from({ length: MAX_HISTORY_MESSAGES + 1 }, () => ({
      role: 'user' as const,
      text: 'ok',
    }))
    expect(() => historyInputItems('long_case', history)).toThrow(
      /Scenario long_case: input.context.history has 129 messages; GPT-Live accepts at most 128/,
    )
    expect(historyInputItems('long_case', history.slice(1))).toHaveLength(128)
  })

  test('more than 8,192 estimated tokens is refused', () => {
    // 3 bytes per token + 4 framing: 10 messages of 2,400 bytes estimate to 10 × 804 = 8,040 tokens (accepted);
    // one more message goes over.
    const message = { role: 'user' as const, text: 'x'.repeat(2_400) }
    expect(historyInputItems('tokens_case', Array(10).fill(message))).toHaveLength(10)
    expect(() => historyInputItems('tokens_case', Array(11).fill(message))).toThrow(
      /renders to about 8844 tokens .* at most 8192/,
    )
  })
})

describe('session.start', () => {
  test('responses delegation: model, voice, PCM 24 kHz, backend config with normalized tools', () => {
    const plan = buildAssistantPlan(visible(), { architecture: 'responses', models })
    const config = buildSessionStart(plan)
    expect(config).toMatchObject({
      model: 'gpt-live-1',
      instructions: plan.voiceInstructions,
      audio: { format: { type: 'audio/pcm', rate: 24000 }, output: { voice: 'marin' } },
      input: plan.input,
    })
    expect(config.delegation).toEqual({
      type: 'responses',
      responses: {
        model: 'gpt-5.6-terra',
        instructions: plan.backendInstructions,
        tools: plan.liveTools,
        reasoning: { effort: 'none' },
        max_output_tokens: 1000,
        text: { verbosity: 'low' },
      },
    })
    const names = plan.liveTools.map((tool) => tool.name)
    expect(names).toEqual(['check_availability', 'create_reservation', 'cancel_reservation'])
    // Optional seating admits null after normalization.
    const check = plan.liveTools[0]?.parameters as { properties: Record<string, unknown> }
    expect(check.properties.seating).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }] })
    expect(buildSessionStart(plan, { parallelToolCalls: false }).delegation).toMatchObject({
      responses: { parallel_tool_calls: false },
    })
  })

  test('client delegation: {type: "client"} and no backend instructions or tools anywhere', () => {
    const plan = buildAssistantPlan(visible(), { architecture: 'client', models })
    const config = buildSessionStart(plan)
    expect(config.delegation).toEqual({ type: 'client' })
    const wire = JSON.stringify(config)
    expect(wire).not.toContain(clientBackendPrompt().slice(0, 60))
    expect(wire).not.toContain('check_availability')
    expect(config.instructions).toBe(plan.voiceInstructions)
  })

  test('no history means no input field', () => {
    const plan = buildAssistantPlan(visible({ context: null }), {
      architecture: 'client',
      models,
    })
    expect(buildSessionStart(plan)).not.toHaveProperty('input')
  })

  test('bad model settings and unknown architectures fail with the field named', () => {
    expect(() => parseAssistantModels({ ...models, backendMaxOutputTokens: 8 })).toThrow(
      /models.backendMaxOutputTokens/,
    )
    expect(() => buildAssistantPlan(visible(), { architecture: 'decisions' as 'client', models })).toThrow(
      /Unknown assistant architecture "decisions"/,
    )
  })
})

describe('bundled datasets', () => {
  test('every bundled scenario builds a plan and a session.start in both architectures', async () => {
    const rows = await bundledRows()
    expect(rows.length).toBeGreaterThan(20)
    for (const { visible } of rows) {
      for (const architecture of ['responses', 'client'] as const) {
        const plan = buildAssistantPlan(visible, { architecture, models })
        const config = buildSessionStart(plan)
        expect(config.input ?? []).toHaveLength(visible.context?.history.length ?? 0)
        expect(config.instructions).toContain(AUTHORIZED_CONTEXT_HEADING)
      }
    }
  })
})
