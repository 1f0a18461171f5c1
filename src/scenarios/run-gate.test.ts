import { describe, expect, it } from 'vitest'
import { multiTurnRaw, type RawObject, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { pathsAndMessages, violationsOf } from './fixtures/violations-of.ts'
import { runGateProblems } from './run-gate.ts'
import { ScenarioSchema } from './scenario.ts'

const only = (scenario: RawObject) => pathsAndMessages(violationsOf([scenario]))

describe('RUN dataset gate', () => {
  it('passes the baseline and ignores single-turn scenarios', () => {
    expect(runGateProblems(ScenarioSchema.parse(multiTurnRaw()))).toEqual([])
    expect(runGateProblems(ScenarioSchema.parse(singleTurnRaw()))).toEqual([])
  })

  it('requires simulation parameters (checked on any parsed scenario)', () => {
    const scenario = { ...ScenarioSchema.parse(multiTurnRaw()), simulation_parameters: null }
    expect(runGateProblems(scenario).map((problem) => problem.message)).toEqual([
      'RUN scenarios must define simulation_parameters',
    ])
  })

  it('requires at least 2 substantive agenda items; finish and wait do not count', () => {
    const scenario = multiTurnRaw()
    const agenda = (scenario.simulation_parameters as { agenda: RawObject[] }).agenda
    ;(agenda[1] as RawObject).action = 'finish'
    agenda.push({ ...(agenda[1] as RawObject), id: 'pause', action: 'wait', after: [] })
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.agenda: RUN scenarios need at least 2 substantive caller agenda items (actions other than finish and wait), found 1',
    ])
  })

  it('requires known facts', () => {
    const scenario = setPath(multiTurnRaw(), 'simulation_parameters.known_facts', {})
    for (const item of (scenario.simulation_parameters as { agenda: RawObject[] }).agenda) item.facts = []
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.known_facts: RUN scenarios must define known_facts for the caller',
    ])
  })

  it('requires at least 7 golden-path turns', () => {
    expect(only(setPath(multiTurnRaw(), 'expected.golden_path.turns', 6))).toEqual([
      'scenarios[0].expected.golden_path.turns: RUN scenarios need expected.golden_path.turns >= 7, got 6',
    ])
  })

  it('requires golden-path delegations to be set', () => {
    expect(only(setPath(multiTurnRaw(), 'expected.golden_path.delegations', undefined))).toEqual([
      'scenarios[0].expected.golden_path.delegations: RUN scenarios must define expected.golden_path.delegations',
    ])
  })

  it('requires positive delegations when delegation is required', () => {
    expect(only(setPath(multiTurnRaw(), 'expected.golden_path.delegations', 0))).toEqual([
      'scenarios[0].expected.golden_path.delegations: RUN scenarios that require delegation must define a positive expected.golden_path.delegations',
    ])
  })

  it('requires zero delegations when delegation is forbidden', () => {
    const scenario = setPath(multiTurnRaw(), 'expected.delegation', 'forbidden')
    setPath(scenario, 'expected.tools.required', [])
    expect(only(scenario)).toEqual([
      'scenarios[0].expected.golden_path.delegations: RUN scenarios that forbid delegation must define zero expected.golden_path.delegations, got 1',
    ])
    expect(only(setPath(scenario, 'expected.golden_path.delegations', 0))).toEqual([])
  })

  it('allows optional delegation with any count, and no procedure', () => {
    const scenario = setPath(multiTurnRaw(), 'expected.delegation', 'optional')
    expect(only(setPath(scenario, 'expected.golden_path.delegations', 0))).toEqual([])
  })
})
