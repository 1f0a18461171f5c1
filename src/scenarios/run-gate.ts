import type { Scenario } from './scenario.ts'
import { NON_SUBSTANTIVE_ACTIONS } from './simulation.ts'

// The RUN dataset gate: a multi-turn scenario must describe a call rich enough to simulate and grade.
// It is applied to every multi_turn scenario when a dataset loads, whichever phase is about to run.

/** A gate violation, with its path relative to the scenario. */
export interface ScenarioProblem {
  path: (string | number)[]
  message: string
}

export const MIN_SUBSTANTIVE_AGENDA_ITEMS = 2
export const MIN_RUN_GOLDEN_TURNS = 7

/** Every RUN gate violation of `scenario`; empty when it passes (single-turn scenarios always pass). */
export function runGateProblems(scenario: Scenario): ScenarioProblem[] {
  if (scenario.interaction !== 'multi_turn') return []
  const problems: ScenarioProblem[] = []
  const parameters = scenario.simulation_parameters
  if (parameters === null) {
    problems.push({
      path: ['simulation_parameters'],
      message: 'RUN scenarios must define simulation_parameters',
    })
  } else {
    const substantive = parameters.agenda.filter((item) => !NON_SUBSTANTIVE_ACTIONS.has(item.action)).length
    if (substantive < MIN_SUBSTANTIVE_AGENDA_ITEMS) {
      problems.push({
        path: ['simulation_parameters', 'agenda'],
        message: `RUN scenarios need at least ${MIN_SUBSTANTIVE_AGENDA_ITEMS} substantive caller agenda items (actions other than finish and wait), found ${substantive}`,
      })
    }
    if (Object.keys(parameters.known_facts).length === 0) {
      problems.push({
        path: ['simulation_parameters', 'known_facts'],
        message: 'RUN scenarios must define known_facts for the caller',
      })
    }
  }
  const { golden_path: goldenPath, delegation } = scenario.expected
  if (goldenPath.turns < MIN_RUN_GOLDEN_TURNS) {
    problems.push({
      path: ['expected', 'golden_path', 'turns'],
      message: `RUN scenarios need expected.golden_path.turns >= ${MIN_RUN_GOLDEN_TURNS}, got ${goldenPath.turns}`,
    })
  }
  if (goldenPath.delegations === null) {
    problems.push({
      path: ['expected', 'golden_path', 'delegations'],
      message: 'RUN scenarios must define expected.golden_path.delegations',
    })
  } else if (delegation === 'required' && goldenPath.delegations === 0) {
    problems.push({
      path: ['expected', 'golden_path', 'delegations'],
      message:
        'RUN scenarios that require delegation must define a positive expected.golden_path.delegations',
    })
  } else if (delegation === 'forbidden' && goldenPath.delegations !== 0) {
    problems.push({
      path: ['expected', 'golden_path', 'delegations'],
      message: `RUN scenarios that forbid delegation must define zero expected.golden_path.delegations, got ${goldenPath.delegations}`,
    })
  }
  return problems
}
