// The completion marker counts what a partial run planned: scenarios, and in a trials run (1.3) trials, since each
// row is then one trial. Markers written before 1.3 (no planned_trials) stay readable.
import { describe, expect, test } from 'vitest'
import { completionExtension, plannedText, runCompletion } from './completion.ts'

describe('the completion marker’s planned counts', () => {
  test('a trials run stopped after 20 rows of 2 scenarios run 30 times each planned 60 trials', () => {
    const marker = runCompletion({
      stopped: 'interrupted',
      finishedRows: 20,
      plannedScenarios: 2,
      trialsPerScenario: 30,
    })
    expect(marker).toEqual({
      ending: 'interrupted',
      finished_rows: 20,
      planned_scenarios: 2,
      planned_trials: 60,
    })
    expect(completionExtension.schema.parse(marker)).toEqual(marker)
    expect(plannedText(marker as NonNullable<typeof marker>)).toBe('60 planned trials of 2 scenarios')
  })

  test('without trials, or with trials unknown, the marker has no planned_trials and counts scenarios', () => {
    for (const trialsPerScenario of [undefined, null, 1]) {
      const marker = runCompletion({
        stopped: 'killed',
        finishedRows: 3,
        plannedScenarios: 5,
        trialsPerScenario,
      })
      expect(marker).toEqual({ ending: 'killed', finished_rows: 3, planned_scenarios: 5 })
      expect(plannedText(marker as NonNullable<typeof marker>)).toBe('5 planned scenarios')
    }
  })

  test('a 1.2 marker (no planned_trials) is still read, and a negative count is not', () => {
    const older = { ending: 'interrupted', finished_rows: 20, planned_scenarios: 2 }
    expect(completionExtension.schema.parse(older)).toEqual(older)
    expect(completionExtension.schema.safeParse({ ...older, planned_trials: -1 }).success).toBe(false)
    expect(completionExtension.version).toBe('1.3')
  })
})
