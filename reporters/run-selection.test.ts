// The `selection` a run's results.json carries: only when the run ran fewer scenarios (in a trials run, fewer
// (scenario, trial) pairs) than it was offered or spec files were left out, with the filter and the scenarios it ran
// of those offered; never for a whole run (even under a filter that matched everything) or an explain re-run.
import { describe, expect, test } from 'vitest'
import type { Vitest } from 'vitest/node'
import type { LoadedRerunPlan } from '../src/explain/rerun-plan.ts'
import type { LiveEvalsTaskMeta } from '../src/vitest/meta.ts'
import { plannedRunFixture } from '../src/vitest/planned-run.test-helpers.ts'
import type { FinishedScenarioTest } from './run-results.ts'
import { selectionOf, testFiltersOf } from './run-selection.ts'

const run = plannedRunFixture()
// The settings' dataset holds a, b and c; d is written inline in a spec file.
const plan = {
  scenarioIds: ['a', 'b', 'c'],
  dataset: '/project/scenarios/shop.json',
  projectRoot: '/project',
  settings: { execution: { trials: 1 } },
}
const SOURCES: Record<string, string> = { d: 'specs/own.spec.ts' }
const scenarioTest = (
  scenarioId: string,
  state: FinishedScenarioTest['state'],
  trial?: number,
  source = SOURCES[scenarioId] ?? 'scenarios/shop.json',
): FinishedScenarioTest => ({
  name: trial === undefined ? scenarioId : `${scenarioId} [trial ${trial}/2]`,
  state,
  meta: { runDirectory: run.directory, scenarioId, source } as LiveEvalsTaskMeta,
  errors: [],
  ...(trial === undefined ? {} : { trial }),
})
const tests = [
  scenarioTest('a', 'passed'),
  scenarioTest('b', 'skipped'),
  scenarioTest('c', 'skipped'),
  scenarioTest('d', 'skipped'),
]
const none = { testNamePattern: null, tags: [] }

describe('selectionOf', () => {
  const whole = ['a', 'b', 'c', 'd'].map((id) => scenarioTest(id, 'passed'))

  test('a run that ran every scenario it was offered carries none, even under a -t filter that matched all', () => {
    expect(selectionOf(plan, run, whole, none, [])).toBeUndefined()
    expect(selectionOf(plan, run, whole, { testNamePattern: 'client', tags: [] }, [])).toBeUndefined()
  })

  test('a run that left scenarios out with no pattern set (a line filter, a UI rerun) carries one', () => {
    expect(selectionOf(plan, run, tests, none, [])).toEqual({
      selected_scenarios: 1,
      offered_scenarios: 4,
      test_name_filter: null,
      tags_filter: [],
      spec_files_left_out: [],
    })
  })

  test('a dataset no collected spec file reads (each brings its own scenarios) offers nothing: the run is whole', () => {
    const inline = [
      scenarioTest('x', 'passed', undefined, 'specs/own.spec.ts'),
      scenarioTest('y', 'failed', undefined, 'specs/own.spec.ts'),
    ]
    expect(selectionOf(plan, run, inline, none, [])).toBeUndefined()
    // A spec file's own dataset that shares ids with the settings' (copied from it) is still not the settings'.
    const smoke = ['a', 'b'].map((id) => scenarioTest(id, 'passed', undefined, 'scenarios/smoke.json'))
    expect(selectionOf(plan, run, smoke, none, [])).toBeUndefined()
    // Their own scenarios still count: one left out by a filter marks the run.
    const oneLeftOut = [
      inline[0] as FinishedScenarioTest,
      { ...(inline[1] as FinishedScenarioTest), state: 'skipped' as const },
    ]
    expect(selectionOf(plan, run, oneLeftOut, none, [])).toMatchObject({
      selected_scenarios: 1,
      offered_scenarios: 2,
    })
  })

  test('a spec file a filter left out may read the dataset: its scenarios stay offered', () => {
    const inline = [scenarioTest('x', 'passed', undefined, 'specs/own.spec.ts')]
    expect(selectionOf(plan, run, inline, none, ['specs/shop.spec.ts'])).toMatchObject({
      selected_scenarios: 1,
      offered_scenarios: 4,
      spec_files_left_out: ['specs/shop.spec.ts'],
    })
  })

  test('a scenario skipped with a note (decided by the run, not a filter) leaves the run whole', () => {
    const noted = [...whole.slice(0, 3), { ...scenarioTest('d', 'skipped'), skipNote: 'fault profile off' }]
    expect(selectionOf(plan, run, noted, none, [])).toBeUndefined()
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

  test('a trials run that ran every scenario but one trial of each (-t "trial 1/") carries one, counting trials', () => {
    const twice = { ...plan, settings: { execution: { trials: 2 } } }
    const trialOne = ['a', 'b', 'c', 'd'].flatMap((id) => [
      scenarioTest(id, 'passed', 1),
      scenarioTest(id, 'skipped', 2),
    ])
    expect(selectionOf(twice, run, trialOne, { testNamePattern: 'trial 1\\/', tags: [] }, [])).toEqual({
      selected_scenarios: 4,
      offered_scenarios: 4,
      selected_trials: 4,
      offered_trials: 8,
      test_name_filter: 'trial 1\\/',
      tags_filter: [],
      spec_files_left_out: [],
    })
    const everyTrial = ['a', 'b', 'c', 'd'].flatMap((id) => [
      scenarioTest(id, 'passed', 1),
      scenarioTest(id, 'failed', 2),
    ])
    expect(selectionOf(twice, run, everyTrial, none, [])).toBeUndefined()
  })

  test('spec files left out by a file filter are named', () => {
    expect(selectionOf(plan, run, whole, none, ['specs/crawl/other.spec.ts'])?.spec_files_left_out).toEqual([
      'specs/crawl/other.spec.ts',
    ])
  })

  test('an explain re-run, which picks its tests by name on purpose, carries none', () => {
    const rerun = { ...plan, rerunPlan: {} as LoadedRerunPlan }
    expect(selectionOf(rerun, run, tests, { testNamePattern: 'a', tags: [] }, [])).toBeUndefined()
  })
})

describe('testFiltersOf', () => {
  test('reads the effective name pattern (a watch-mode filter lives in the config override), not config alone', () => {
    const vitest = {
      config: { testNamePattern: undefined, tagsFilter: undefined },
      getGlobalTestNamePattern: () => /client/,
    } as unknown as Vitest
    expect(testFiltersOf(vitest)).toEqual({ testNamePattern: 'client', tags: [] })
  })
})
