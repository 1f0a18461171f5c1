import { type Scenario, ScenarioSchema } from './scenario.ts'
import { NON_SUBSTANTIVE_ACTIONS } from './simulation.ts'
import { EACH, whenParsed } from './when-parsed.ts'

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

/**
 * A scenario with the RUN gate applied, as datasets are loaded. The gate runs once the fields it reads
 * parsed, so it reports alongside other problems of the same scenario. A multi-turn scenario without
 * simulation parameters is already refused by ScenarioSchema in the toolkit's words; it is not said twice.
 */
export const RunGatedScenarioSchema = ScenarioSchema.superRefine(
  (scenario, ctx) => {
    for (const problem of runGateProblems(scenario)) {
      const saidByScenarioSchema =
        scenario.simulation_parameters === null &&
        problem.path.length === 1 &&
        problem.path[0] === 'simulation_parameters'
      if (!saidByScenarioSchema)
        ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message })
    }
  },
  {
    when: whenParsed(
      ['interaction'],
      ['simulation_parameters', 'agenda', EACH, 'action'],
      ['simulation_parameters', 'known_facts'],
      ['expected', 'golden_path'],
      ['expected', 'delegation'],
    ),
  },
)
