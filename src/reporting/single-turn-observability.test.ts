import { describe, expect, test } from 'vitest'
import { bookingObservation, bookingScenario, execution } from '../grading/grading-fixtures.ts'
import { gradeSingleTurn } from '../grading/single-turn.ts'
import { singleTurnObservability } from './single-turn-observability.ts'

describe('singleTurnObservability', () => {
  test('reports interaction, tools, grading statuses, completion and scenario, without agenda or floor', () => {
    const scenario = bookingScenario()
    const observation = bookingObservation({
      tool_executions: [execution({ call_id: 'c0', status: 'failed' }), execution()],
    })
    const grade = gradeSingleTurn(observation, scenario)
    const block = singleTurnObservability({
      observation,
      scenario,
      grade,
      audio_source: 'synthetic',
      provenance: { execution_mode: 'offline_fixture' },
    })
    expect(block.interaction).toEqual({
      mode: 'single_turn',
      audio_source: 'synthetic',
      assistant_turns: 1,
      caller_turns: 1,
      delegations: 1,
    })
    expect(block.tools).toMatchObject({
      expected_count: 1,
      matched_count: 1,
      unexpected_completed_count: 0,
      failed_count: 1,
    })
    expect(block.completion).toMatchObject({
      passed: false,
      source: 'deterministic',
      failed_checks: ['tool_contract'],
    })
    expect((block.grading as { deterministic: Record<string, string> }).deterministic.tool_execution).toBe(
      'failed',
    )
    expect(block.scenario).toEqual({ id: 'restaurant_001', type: 'booking' })
    expect(block).not.toHaveProperty('agenda')
    expect(block).not.toHaveProperty('floor')
    // Evaluator-only expectations stay out of the row's observability.
    expect(JSON.stringify(block)).not.toContain(scenario.expected.answer)
  })
})
