import { describe, expect, it } from 'vitest'
import { multiTurnRaw, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { type Scenario, ScenarioSchema } from './scenario.ts'
import { selectScenarios } from './select.ts'

const recorded = (id: string) =>
  setPath(singleTurnRaw(id), 'input.recordings', [{ id: 'take', path: `${id}.wav` }])
const scenarios: Scenario[] = [
  singleTurnRaw('s1'),
  multiTurnRaw('m1'),
  recorded('w1'),
  singleTurnRaw('s2'),
  multiTurnRaw('m2'),
  recorded('w2'),
].map((raw) => ScenarioSchema.parse(raw))
const ids = (selected: Scenario[]) => selected.map((scenario) => scenario.id)

describe('selectScenarios', () => {
  it('selects by phase in dataset order', () => {
    expect(ids(selectScenarios(scenarios, 'crawl'))).toEqual(['s1', 'w1', 's2', 'w2'])
    expect(ids(selectScenarios(scenarios, 'walk'))).toEqual(['w1', 'w2'])
    expect(ids(selectScenarios(scenarios, 'run'))).toEqual(['m1', 'm2'])
  })

  it('filters by ids, keeping dataset order', () => {
    expect(ids(selectScenarios(scenarios, 'crawl', { scenarioIds: ['s2', 's1'] }))).toEqual(['s1', 's2'])
    // An empty filter (e.g. a config default) is no filter rather than an empty run.
    expect(ids(selectScenarios(scenarios, 'run', { scenarioIds: [] }))).toEqual(['m1', 'm2'])
  })

  it('refuses unknown ids and ids of another phase', () => {
    expect(() => selectScenarios(scenarios, 'run', { scenarioIds: ['m1', 'nope'] })).toThrow(
      'unknown scenario id "nope"; the run phase can run: m1, m2',
    )
    expect(() => selectScenarios(scenarios, 'walk', { scenarioIds: ['s1'] })).toThrow(
      'scenario "s1" cannot run in the walk phase, which runs single_turn scenarios with a recording',
    )
  })

  it('keeps at most maxExamples, 0 meaning all', () => {
    expect(ids(selectScenarios(scenarios, 'crawl', { maxExamples: 2 }))).toEqual(['s1', 'w1'])
    expect(ids(selectScenarios(scenarios, 'crawl', { maxExamples: 0 }))).toHaveLength(4)
    expect(ids(selectScenarios(scenarios, 'crawl', { scenarioIds: ['s2', 'w2'], maxExamples: 1 }))).toEqual([
      's2',
    ])
    expect(() => selectScenarios(scenarios, 'crawl', { maxExamples: -1 })).toThrow(
      'max examples must be a whole number',
    )
  })
})
