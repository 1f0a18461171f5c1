// The `selection` a run's results.json carries: only when Vitest's filters chose part of the project, with the
// scenarios it ran of those offered; never for a full run or an explain re-run.
import { describe, expect, test } from 'vitest'
import type { LoadedRerunPlan } from '../src/explain/rerun-plan.ts'
import type { LiveEvalsTaskMeta } from '../src/vitest/meta.ts'
import { plannedRunFixture } from '../src/vitest/planned-run.test-helpers.ts'
import type { FinishedScenarioTest } from './run-results.ts'
import { selectionOf } from './run-selection.ts'

const run = plannedRunFixture()
const plan = { scenarioIds: ['a', 'b', 'c'] }
const scenarioTest = (scenarioId: string, state: FinishedScenarioTest['state']): FinishedScenarioTest => ({
  name: scenarioId,
  state,
  meta: { runDirectory: run.directory, scenarioId } as LiveEvalsTaskMeta,
  errors: [],
})
const tests = [
  scenarioTest('a', 'passed'),
  scenarioTest('b', 'skipped'),
  scenarioTest('c', 'skipped'),
  scenarioTest('d', 'skipped'),
]
const none = { testNamePattern: null, tags: [] }

describe('selectionOf', () => {
  test('a run nothing filtered carries none', () => {
    expect(selectionOf(plan, run, tests, none, [])).toBeUndefined()
  })

  test('a -t run names its filter and counts the scenarios it ran of those offered (dataset and spec files)', () => {
    expect(selectionOf(plan, run, tests, { testNamePattern: 'a', tags: [] }, [])).toEqual({
      selected_scenarios: 1,
      offered_scenarios: 4,
      test_name_filter: 'a',
      tags_filter: [],
      spec_files_left_out: [],
    })
  })

  test('spec files left out by a file filter are named', () => {
    expect(selectionOf(plan, run, tests, none, ['specs/crawl/other.spec.ts'])?.spec_files_left_out).toEqual([
      'specs/crawl/other.spec.ts',
    ])
  })

  test('an explain re-run, which picks its tests by name on purpose, carries none', () => {
    const rerun = { ...plan, rerunPlan: {} as LoadedRerunPlan }
    expect(selectionOf(rerun, run, tests, { testNamePattern: 'a', tags: [] }, [])).toBeUndefined()
  })
})
