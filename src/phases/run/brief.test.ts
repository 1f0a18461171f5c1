import { describe, expect, it } from 'vitest'
import { loadDataset } from '../../scenarios/load.ts'
import { ScenarioSchema } from '../../scenarios/scenario.ts'
import { buildCallerBrief, callerBriefOf, conversationPlanLines } from './brief.ts'

// Every evaluator-only field carries a sentinel; the caller may see none of them. Caller-visible fields carry
// their own markers, which must all arrive (so the test would notice a brief that dropped everything).
const hidden = {
  title: 'HIDDEN_TITLE',
  answer: 'HIDDEN_ANSWER',
  criterion: 'HIDDEN_CRITERION',
  requiredTool: 'hidden_required_tool',
  requiredArg: 'HIDDEN_REQUIRED_ARG',
  prohibitedTool: 'hidden_prohibited_tool',
  state: 'HIDDEN_EXPECTED_STATE',
  procedureId: 'hidden_procedure',
  sopArg: 'HIDDEN_SOP_ARG',
  initialState: 'HIDDEN_INITIAL_STATE',
  completion: 'HIDDEN_COMPLETION_CONDITION',
  finishHint: 'HIDDEN_WAIT_HINT',
}
const visible = {
  opening: 'VISIBLE_OPENING',
  goal: 'VISIBLE_GOAL',
  fact: 'VISIBLE_FACT',
  expectation: 'VISIBLE_EXPECTATION',
  persona: 'VISIBLE_PERSONA',
  speech: 'VISIBLE_SPEECH',
  trigger: 'VISIBLE_TRIGGER',
  hint: 'VISIBLE_HINT',
  commitment: 'VISIBLE_COMMITMENT',
}

const sentinelScenario = () =>
  ScenarioSchema.parse({
    id: 'caller_leak_check',
    title: hidden.title,
    interaction: 'multi_turn',
    input: { text: `Hello, ${visible.opening}` },
    application: { initial_state: { note: hidden.initialState } },
    expected: {
      answer: hidden.answer,
      criteria: [hidden.criterion],
      tools: {
        required: [{ name: hidden.requiredTool, arguments: { x: hidden.requiredArg } }],
        prohibited: [{ name: hidden.prohibitedTool }],
      },
      golden_path: { turns: 7, delegations: 1 },
      state: { marker: hidden.state },
      procedure: {
        id: hidden.procedureId,
        steps: [{ id: 's1', kind: 'tool', tool: hidden.requiredTool, arguments: { y: hidden.sopArg } }],
      },
    },
    simulation_parameters: {
      goal: visible.goal,
      known_facts: { guest_name: visible.fact, party_size: 4 },
      expectations: [visible.expectation],
      persona: { description: visible.persona, speech_instructions: visible.speech, voice: 'marin' },
      agenda: [
        {
          id: 'a1',
          commitment: 'say the name',
          trigger_condition: visible.trigger,
          completion_condition: hidden.completion,
          action: 'answer',
          facts: ['guest_name'],
          response_hint: visible.hint,
        },
        {
          id: 'a2',
          commitment: visible.commitment,
          trigger_condition: 'when asked for the size',
          completion_condition: hidden.completion,
          action: 'answer',
        },
        {
          id: 'a3',
          commitment: 'wait',
          trigger_condition: 'while it works',
          completion_condition: hidden.completion,
          action: 'wait',
          response_hint: hidden.finishHint,
        },
      ],
    },
  })

describe('caller brief', () => {
  for (const firstSpeaker of ['caller', 'assistant'] as const) {
    it(`carries only caller-visible text (${firstSpeaker} first)`, () => {
      const brief = callerBriefOf(sentinelScenario(), firstSpeaker)
      const text = `${brief.instructions}\n${brief.backendInstructions}\n${brief.openingText}`
      for (const sentinel of Object.values(hidden)) expect(text).not.toContain(sentinel)
      for (const marker of Object.values(visible)) expect(brief.instructions).toContain(marker)
      for (const marker of Object.values(visible)) expect(brief.backendInstructions).toContain(marker)
      expect(brief.voice).toBe('marin')
    })
  }

  it('writes facts as spoken lines and the plan from triggers and hints (commitment when no hint)', () => {
    const brief = callerBriefOf(sentinelScenario(), 'caller')
    expect(brief.instructions).toContain(`- guest name: ${visible.fact}`)
    expect(brief.instructions).toContain('- party size: 4')
    const plan = conversationPlanLines(sentinelScenario().simulation_parameters?.agenda ?? [])
    expect(plan).toEqual([
      `- ${visible.trigger}: ${visible.hint}`,
      `- when asked for the size: ${visible.commitment}`,
    ])
  })

  it('says who speaks first', () => {
    const scenario = sentinelScenario()
    expect(callerBriefOf(scenario, 'caller').instructions).toMatch(/speak first/)
    expect(callerBriefOf(scenario, 'assistant').instructions).toMatch(/Wait for its greeting/)
  })

  it('refuses a scenario without simulation parameters, naming it', () => {
    expect(() =>
      callerBriefOf({ id: 'single', simulation_parameters: null, input: { text: 'hi' } }, 'caller'),
    ).toThrow(/Scenario single: a RUN caller needs simulation_parameters/)
  })

  it('leaks nothing evaluator-only from any bundled RUN scenario', async () => {
    const dataset = await loadDataset(
      new URL('../../../scenarios/run/restaurant.json', import.meta.url).pathname,
    )
    expect(dataset.scenarios.length).toBe(15)
    for (const scenario of dataset.scenarios) {
      const brief = callerBriefOf(scenario, 'caller')
      const text = `${brief.instructions}\n${brief.backendInstructions}`
      expect(text).not.toContain(scenario.expected.answer)
      for (const criterion of scenario.expected.criteria) expect(text).not.toContain(criterion)
      if (scenario.expected.procedure) expect(text).not.toContain(scenario.expected.procedure.id)
      for (const item of scenario.simulation_parameters?.agenda ?? []) {
        expect(text).not.toContain(item.completion_condition)
      }
      expect(text).not.toContain('reservation_id')
      expect(brief.openingText).toBe(scenario.input.text)
    }
  })

  it('is a pure function of its input', () => {
    const parameters = sentinelScenario().simulation_parameters
    if (parameters === null) throw new Error('fixture has parameters')
    const input = { parameters, openingText: 'hi', firstSpeaker: 'caller' as const }
    expect(buildCallerBrief(input)).toEqual(buildCallerBrief(structuredClone(input)))
  })
})
