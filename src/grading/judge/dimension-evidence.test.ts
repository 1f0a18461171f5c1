import { describe, expect, it } from 'vitest'
import { dimensionEvidence, PROCEDURE_EVIDENCE_PART, RUN_OUTCOME_CRITERIA } from './dimension-evidence.ts'
import { buildJudgeEvidence, type JudgeEvidenceRecord } from './evidence.ts'
import {
  bookingObserved,
  judgeBooking,
  SIMULATED_CALL_PROCEDURE as procedure,
  simulatedCall,
} from './judge.test-helpers.ts'

/** A simulated call's evidence as a phase would build it: the SOP in its own part. */
function callEvidence(): JudgeEvidenceRecord {
  return {
    scenario: {
      example_id: 'restaurant_001',
      expected_response: 'The table for Maya is booked.',
      success_criteria: ['Confirms the time.'],
      expected_tool_calls: [
        { name: 'create_reservation', arguments: { party_size: 2 }, status: 'completed' },
      ],
    },
    observed: { conversation: [{ role: 'caller', text: 'A table for two, please.', start_ms: 0 }] },
    [PROCEDURE_EVIDENCE_PART]: { standard_operating_procedure: procedure, step_results: [] },
  }
}

describe('dimensionEvidence', () => {
  it('shows a single-turn scenario the same evidence for every dimension', () => {
    const evidence = buildJudgeEvidence(judgeBooking(), bookingObserved())
    expect(dimensionEvidence(evidence, 'task_understanding', judgeBooking())).toBe(evidence)
    expect(dimensionEvidence(evidence, 'grounded_communication', judgeBooking())).toBe(evidence)
    expect(evidence.observed).not.toHaveProperty('conversation')
  })

  it('judges a simulated call’s task against the goal, the outcome criteria and preferred tools, without the SOP', () => {
    const evidence = callEvidence()
    const shown = dimensionEvidence(evidence, 'task_understanding', simulatedCall()) as JudgeEvidenceRecord
    expect(shown.scenario).toMatchObject({
      expected_response: 'Book a table for two under Maya, then hang up.',
      success_criteria: ['Confirms the time.', ...RUN_OUTCOME_CRITERIA],
      preferred_tool_calls: [{ name: 'create_reservation', arguments: { party_size: 2 } }],
    })
    expect(shown.scenario).not.toHaveProperty('expected_tool_calls')
    expect(shown).not.toHaveProperty(PROCEDURE_EVIDENCE_PART)
    expect(JSON.stringify(shown)).not.toContain(procedure.id)
    expect(shown.observed).toBe(evidence.observed)
    // The shared evidence is left as it was: the other dimensions still read it whole.
    expect(evidence).toEqual(callEvidence())
  })

  it('shows the SOP part to the other dimensions of a simulated call', () => {
    const evidence = callEvidence()
    for (const dimension of [
      'context_fidelity',
      'grounded_communication',
      'conversational_coherence',
    ] as const) {
      const shown = dimensionEvidence(evidence, dimension, simulatedCall())
      expect(shown).toBe(evidence)
      expect(shown).toHaveProperty([PROCEDURE_EVIDENCE_PART, 'standard_operating_procedure'], procedure)
    }
  })
})
