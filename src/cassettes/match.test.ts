import { describe, expect, test } from 'vitest'
import { describeDifference, firstDifference } from './match.ts'

describe('first difference', () => {
  test('ignores the harness event ids and clock readings, compares everything else exactly', () => {
    const recorded = { type: 'session.update', event_id: 'evt_3', session: { instructions: 'Be brief.' } }
    expect(firstDifference(recorded, { ...recorded, event_id: 'evt_9' })).toBeNull()
    expect(
      firstDifference([{ completed_at_ms: 10, output: 1 }], [{ completed_at_ms: 12, output: 1 }]),
    ).toBeNull()
    const changed = { ...recorded, session: { instructions: 'Be kind.' } }
    expect(firstDifference(recorded, changed)).toEqual({
      path: 'session.instructions',
      recorded: 'Be brief.',
      now: 'Be kind.',
    })
  })

  test('names the character where a text changed, and array positions and missing keys', () => {
    const long = `${'a'.repeat(212)}X tail`
    const difference = firstDifference({ instructions: `${'a'.repeat(212)}Y tail` }, { instructions: long })
    expect(describeDifference(difference ?? { path: '', recorded: 0, now: 0 })).toMatch(
      /^instructions changed at character 212 \(recorded "…a+Y tail", now "…a+X tail"\)$/,
    )
    expect(firstDifference({ tools: [1, 2] }, { tools: [1, 2, 3] })).toEqual({
      path: 'tools[2]',
      recorded: undefined,
      now: 3,
    })
    const output = firstDifference(
      { output: { reservation_id: 'R-001' } },
      { output: { reservation_id: 'R-002' } },
    )
    expect(describeDifference(output ?? { path: '', recorded: 0, now: 0 })).toBe(
      'output.reservation_id: recorded "R-001", now "R-002"',
    )
    expect(describeDifference({ path: 'a', recorded: 1, now: undefined })).toBe('a is missing: recorded 1')
  })
})
