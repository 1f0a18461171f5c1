import { describe, expect, test } from 'vitest'
import { bookingObservation, execution, expectedToolCall } from '../grading/grading-fixtures.ts'
import { computeEfficiencyMetrics, totalTurns, uniqueToolInvocations } from './efficiency.ts'

describe('efficiency metrics', () => {
  test('tool invocations are deduplicated by (name, status, call_id)', () => {
    const unique = uniqueToolInvocations([
      execution(),
      execution(),
      execution({ status: 'failed' }),
      execution({ call_id: 'call_2' }),
      execution({ name: 'check_availability' }),
    ])
    expect(unique).toHaveLength(4)
  })
  test('delegations count unique ids', () => {
    const metrics = computeEfficiencyMetrics(bookingObservation({ delegation_ids: ['a', 'a', 'b'] }), [], 0)
    expect(metrics.delegation_count).toBe(2)
  })
  test('total turns add caller turns, assistant episodes and closings; any unknown part makes it null', () => {
    expect(
      totalTurns(
        bookingObservation({
          caller_turn_count: 2,
          assistant_response_episode_count: 2,
          closing_turn_count: 1,
        }),
      ),
    ).toBe(5)
    expect(totalTurns(bookingObservation({ assistant_response_episode_count: null }))).toBeNull()
    expect(totalTurns(bookingObservation({ closing_turn_count: null }))).toBeNull()
  })
  test('matched is one-to-one against completed executions; unexpected and failed are counted', () => {
    const required = [expectedToolCall('create_reservation'), expectedToolCall('create_reservation')]
    const observation = bookingObservation({
      tool_executions: [
        execution({ call_id: 'a' }),
        execution({ call_id: 'b', name: 'check_availability' }),
        execution({ call_id: 'c', status: 'failed' }),
      ],
    })
    const metrics = computeEfficiencyMetrics(observation, required, 1)
    expect(metrics).toMatchObject({
      unique_tool_invocation_count: 3,
      unique_completed_tool_invocation_count: 2,
      unique_failed_tool_invocation_count: 1,
      matched_tool_call_count: 1,
      unexpected_completed_tool_invocation_count: 1,
    })
  })
  test('the efficiency match ignores order while unexpected executions follow the positional match', () => {
    // Reversed calls: no position matches, but a one-to-one assignment still pairs both.
    const required = [expectedToolCall('check_availability'), expectedToolCall('create_reservation')]
    const observation = bookingObservation({
      tool_executions: [execution({ call_id: 'a' }), execution({ call_id: 'b', name: 'check_availability' })],
    })
    const metrics = computeEfficiencyMetrics(observation, required, 0)
    expect(metrics.matched_tool_call_count).toBe(2)
    expect(metrics.unexpected_completed_tool_invocation_count).toBe(2)
  })
})
