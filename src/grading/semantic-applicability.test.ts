import { describe, expect, test } from 'vitest'
import { expectedOutcome, expectedToolCall, scenarioFacts } from './grading-fixtures.ts'
import { applicableSemanticDimensions, offlineSemanticGrades } from './semantic-applicability.ts'

const withTool = expectedOutcome({
  tools: { required: [expectedToolCall('create_reservation')], prohibited: [] },
})

describe('applicableSemanticDimensions', () => {
  test('a booking with a tool: task understanding and grounded communication', () => {
    expect(applicableSemanticDimensions(scenarioFacts({ expected: withTool }))).toEqual([
      'task_understanding',
      'grounded_communication',
    ])
  })
  test('context fidelity with a context, or a spoken correction word', () => {
    expect(applicableSemanticDimensions(scenarioFacts({ has_conversation_context: true }))).toContain(
      'context_fidelity',
    )
    const corrected = scenarioFacts({ input_text: 'For two, actually four people.' })
    expect(applicableSemanticDimensions(corrected)).toContain('context_fidelity')
    expect(applicableSemanticDimensions(scenarioFacts({ input_text: 'Sorrynot a word' }))).toEqual([
      'task_understanding',
    ])
  })
  test('clarification quality for clarification scenarios or a clarification procedure step', () => {
    expect(applicableSemanticDimensions(scenarioFacts({ scenario_type: 'clarification' }))).toEqual([
      'task_understanding',
      'clarification_quality',
    ])
    const procedure = expectedOutcome({
      procedure: {
        id: 'p',
        steps: [
          {
            id: 's',
            kind: 'clarification',
            tool: null,
            arguments: {},
            after: [],
            required: true,
            critical: false,
          },
        ],
      },
    })
    expect(applicableSemanticDimensions(scenarioFacts({ expected: procedure }))).toContain(
      'clarification_quality',
    )
  })
  test('multi-turn adds context fidelity and conversational coherence', () => {
    expect(applicableSemanticDimensions(scenarioFacts({ interaction: 'multi_turn' }))).toEqual([
      'task_understanding',
      'context_fidelity',
      'conversational_coherence',
    ])
  })
  test('offline grades are not_assessed when applicable and not_applicable otherwise', () => {
    const grades = offlineSemanticGrades(scenarioFacts())
    expect(grades.task_understanding.status).toBe('not_assessed')
    expect(grades.conversational_coherence.status).toBe('not_applicable')
    expect(Object.values(grades).every((grade) => grade.passed === null && grade.score === null)).toBe(true)
  })
})
