import { describe, expect, test } from 'vitest'
import { skippedScenariosLine } from './skip-notes.ts'

describe('the closing line of skipped scenario tests', () => {
  test('says how many and the first reason; nothing when none was skipped with a reason', () => {
    expect(skippedScenariosLine([])).toBeNull()
    expect(skippedScenariosLine(['a is written for fault profile x'])).toBe(
      '1 skipped: a is written for fault profile x',
    )
    expect(skippedScenariosLine(['a: why', 'b: why'])).toBe(
      "2 skipped: a: why (and 1 more, each with its reason in the test's skip note)",
    )
  })
})
