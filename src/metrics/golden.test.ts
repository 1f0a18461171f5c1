import { describe, expect, test } from 'vitest'
import { expectedOutcome, expectedToolCall } from '../grading/grading-fixtures.ts'
import { GoldenPathSchema } from '../scenarios/expected.ts'
import { runGolden, singleTurnGolden } from './golden.ts'

const tools = {
  required: [expectedToolCall('check_availability'), expectedToolCall('create_reservation')],
  prohibited: [],
}

describe('golden values', () => {
  test('single-turn: two turns, one call per required tool, a delegation only when required', () => {
    expect(singleTurnGolden(expectedOutcome({ tools, delegation: 'required' }))).toEqual({
      total_turns: 2,
      tool_calls: [
        { name: 'check_availability', count: 1 },
        { name: 'create_reservation', count: 1 },
      ],
      delegations: 1,
      delegation_policy: 'required',
    })
    expect(singleTurnGolden(expectedOutcome({ delegation: 'optional' })).delegations).toBe(0)
  })
  test('RUN: turns and delegations come from the golden path; an unknown delegation count stays null', () => {
    const golden = runGolden(
      expectedOutcome({
        tools,
        delegation: 'optional',
        golden_path: { turns: 6, delegations: 2, steps: [] },
      }),
    )
    expect(golden).toEqual({
      total_turns: 6,
      tool_calls: [
        { name: 'check_availability', count: 1 },
        { name: 'create_reservation', count: 1 },
      ],
      delegations: 2,
      delegation_policy: 'optional',
    })
    expect(
      runGolden(expectedOutcome({ golden_path: { turns: 4, delegations: null, steps: [] } })).delegations,
    ).toBeNull()
  })
  test('RUN: a parsed golden path with turns 0 and listed steps counts the steps', () => {
    const golden_path = GoldenPathSchema.parse({ turns: 0, steps: ['greet', 'check', 'book'] })
    expect(runGolden(expectedOutcome({ golden_path })).total_turns).toBe(3)
  })
})
