import { describe, expect, it } from 'vitest'
import { ScenarioSchema } from './scenario.ts'
import { assistantVisibleInput } from './visible.ts'

// Every evaluator-only field holds a distinct sentinel; none may appear in what the assistant receives.
const sentinels = {
  title: 'SENTINEL_TITLE',
  type: 'SENTINEL_TYPE',
  tag: 'SENTINEL_TAG',
  recordingPath: 'SENTINEL_RECORDING_PATH.wav',
  recordingMeta: 'SENTINEL_RECORDING_META',
  answer: 'SENTINEL_ANSWER',
  criterion: 'SENTINEL_CRITERION',
  requiredTool: 'SENTINEL_REQUIRED_TOOL',
  requiredArg: 'SENTINEL_REQUIRED_ARG',
  prohibitedTool: 'SENTINEL_PROHIBITED_TOOL',
  step: 'SENTINEL_GOLDEN_STEP',
  diagnostic: 'SENTINEL_DIAGNOSTIC',
  state: 'SENTINEL_EXPECTED_STATE',
  procedureId: 'SENTINEL_PROCEDURE',
  sopStep: 'SENTINEL_SOP_STEP',
  sopArg: 'SENTINEL_SOP_ARG',
  goal: 'SENTINEL_CALLER_GOAL',
  fact: 'SENTINEL_KNOWN_FACT',
  expectation: 'SENTINEL_EXPECTATION',
  personaDescription: 'SENTINEL_PERSONA',
  speechInstructions: 'SENTINEL_SPEECH',
  agenda: 'SENTINEL_AGENDA',
  hint: 'SENTINEL_HINT',
}

function scenarioWithSentinels(interaction: 'single_turn' | 'multi_turn') {
  const multi = interaction === 'multi_turn'
  return ScenarioSchema.parse({
    id: 'leak_check',
    title: sentinels.title,
    type: sentinels.type,
    interaction,
    tags: [sentinels.tag],
    input: {
      text: 'Could I cancel reservation R-100?',
      recordings: multi
        ? []
        : [{ id: 'take', path: sentinels.recordingPath, metadata: { note: sentinels.recordingMeta } }],
      context: {
        summary: 'Earlier the guest asked about parking.',
        history: [{ role: 'user', text: 'Hello there' }],
      },
    },
    application: { initial_state: { authorized_reservation_ids: ['R-100'] } },
    expected: {
      answer: sentinels.answer,
      criteria: [sentinels.criterion],
      tools: {
        required: [{ name: sentinels.requiredTool, arguments: { reservation_id: sentinels.requiredArg } }],
        prohibited: [{ name: sentinels.prohibitedTool }],
      },
      golden_path: { turns: multi ? 7 : 2, delegations: 1, steps: [sentinels.step] },
      diagnostic_terms: [sentinels.diagnostic],
      delegation: 'required',
      state: { note: sentinels.state },
      procedure: multi
        ? {
            id: sentinels.procedureId,
            steps: [{ id: sentinels.sopStep, kind: 'state', arguments: { x: sentinels.sopArg } }],
          }
        : null,
    },
    simulation_parameters: multi
      ? {
          goal: sentinels.goal,
          known_facts: { secret: sentinels.fact },
          expectations: [sentinels.expectation],
          persona: {
            description: sentinels.personaDescription,
            speech_instructions: sentinels.speechInstructions,
          },
          agenda: ['a', 'b'].map((id) => ({
            id: `${sentinels.agenda}_${id}`,
            commitment: sentinels.agenda,
            trigger_condition: sentinels.agenda,
            completion_condition: sentinels.agenda,
            action: 'answer',
            response_hint: sentinels.hint,
            facts: ['secret'],
          })),
        }
      : null,
  })
}

describe('assistantVisibleInput', () => {
  for (const interaction of ['single_turn', 'multi_turn'] as const) {
    it(`exposes no evaluator-only field of a ${interaction} scenario`, () => {
      const visible = JSON.stringify(assistantVisibleInput(scenarioWithSentinels(interaction)))
      expect(visible).not.toMatch(/SENTINEL/)
      expect(visible).not.toContain('secret')
    })
  }

  it('carries exactly the caller-visible input and authorized context', () => {
    expect(assistantVisibleInput(scenarioWithSentinels('single_turn'))).toEqual({
      scenarioId: 'leak_check',
      interaction: 'single_turn',
      inputText: 'Could I cancel reservation R-100?',
      context: {
        summary: 'Earlier the guest asked about parking.',
        history: [{ role: 'user', text: 'Hello there' }],
      },
      initialState: { authorized_reservation_ids: ['R-100'] },
    })
  })

  it('returns deep copies the assistant side cannot use to change the scenario', () => {
    const scenario = scenarioWithSentinels('single_turn')
    const visible = assistantVisibleInput(scenario)
    ;(visible.initialState.authorized_reservation_ids as string[]).push('R-999')
    visible.context?.history.push({ role: 'assistant', text: 'injected' })
    ;(visible.context?.history[0] as { text: string }).text = 'changed'
    expect(scenario.application.initial_state).toEqual({ authorized_reservation_ids: ['R-100'] })
    expect(scenario.input.context?.history).toEqual([{ role: 'user', text: 'Hello there' }])
  })

  // Free-form objects are kept as given (so prototype-named keys survive), not copied by the parse: an inline
  // scenario may pass one object as both its initial and expected state. The assistant's copy still reaches
  // nothing of the evaluator's, and evaluator-only keys named like prototype properties do not leak either.
  it('keeps the evaluator side apart when one object is both the initial and the expected state', () => {
    const shared: Record<string, unknown> = { authorized_reservation_ids: ['R-100'] }
    const raw = JSON.parse(JSON.stringify(scenarioWithSentinels('single_turn')))
    raw.application.initial_state = shared
    raw.expected.state = shared
    raw.expected.tools.required[0].arguments = JSON.parse(
      `{"__proto__": {"leak": "${sentinels.requiredArg}"}}`,
    )
    const scenario = ScenarioSchema.parse(raw)
    const visible = assistantVisibleInput(scenario)
    ;(visible.initialState.authorized_reservation_ids as string[]).push('R-999')
    visible.initialState.injected = true
    expect(scenario.expected.state).toEqual({ authorized_reservation_ids: ['R-100'] })
    expect(JSON.stringify(scenario.expected.tools.required[0]?.arguments)).toContain(sentinels.requiredArg)
    expect(JSON.stringify(visible)).not.toMatch(/SENTINEL/)
  })
})
