import { describe, expect, it } from 'vitest'
import { dimensionEvidence, RUN_OUTCOME_CRITERIA } from './dimension-evidence.ts'
import { buildJudgeEvidence } from './evidence.ts'
import {
  bookingObserved,
  judgeBooking,
  SIMULATED_CALL_PROCEDURE as procedure,
  simulatedCall,
} from './judge.test-helpers.ts'

describe('dimensionEvidence', () => {
  it('shows a single-turn scenario the same evidence for every dimension', () => {
    const evidence = buildJudgeEvidence(judgeBooking(), bookingObserved())
    expect(dimensionEvidence(evidence, 'task_understanding', judgeBooking())).toBe(evidence)
    expect(evidence.observed).not.toHaveProperty('conversation')
  })

  it('judges a simulated call’s task against the goal, the outcome criteria and preferred tools, without the SOP', () => {
    const scenario = simulatedCall()
    const evidence = buildJudgeEvidence(scenario, bookingObserved())
    const shown = dimensionEvidence(evidence, 'task_understanding', scenario) as typeof evidence & {
      scenario: Record<string, unknown>
    }
    expect(shown.scenario).toMatchObject({
      expected_response: 'Book a table for two under Maya, then hang up.',
      success_criteria: ['Confirms the time.', ...RUN_OUTCOME_CRITERIA],
      preferred_tool_calls: [{ name: 'create_reservation', arguments: { party_size: 2 } }],
    })
    expect(shown.scenario).not.toHaveProperty('expected_tool_calls')
    expect(shown.scenario).not.toHaveProperty('procedure')
    expect(shown.observed).toHaveProperty('conversation', [
      { role: 'user', text: 'Book a table for two under Maya tomorrow at seven.' },
      { role: 'assistant', text: 'One moment.' },
      { role: 'assistant', text: 'You are booked, reservation R-001.' },
    ])
  })

  it('shows the SOP to the other dimensions of a simulated call', () => {
    const scenario = simulatedCall()
    const evidence = buildJudgeEvidence(scenario, bookingObserved())
    const shown = dimensionEvidence(evidence, 'conversational_coherence', scenario) as { scenario: object }
    expect(shown.scenario).toMatchObject({ procedure, expected_tool_calls: [{ name: 'create_reservation' }] })
  })
})
