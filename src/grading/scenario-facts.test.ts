import { describe, expect, test } from 'vitest'
import { ScenarioSchema } from '../scenarios/scenario.ts'
import { scenarioFactsOf } from './scenario-facts.ts'

describe('scenarioFactsOf', () => {
  test('takes type, interaction, request text, context presence and expectations from a parsed scenario', () => {
    const scenario = ScenarioSchema.parse({
      id: 'restaurant_015',
      title: 'Booking after a summary',
      tags: ['prior_context'],
      interaction: 'single_turn',
      input: { text: 'Same as last time, please.', context: { summary: 'Maya booked for two before.' } },
      expected: { answer: 'Booked.', delegation: 'required' },
    })
    expect(scenarioFactsOf(scenario)).toEqual({
      scenario_id: 'restaurant_015',
      scenario_type: 'prior_context',
      interaction: 'single_turn',
      input_text: 'Same as last time, please.',
      has_conversation_context: true,
      expected: scenario.expected,
    })
  })
})
