// defineScenario(): a scenario written in a spec file, typed from the zod contract (schema 1.0). It is checked by
// the same contract as a dataset file when scenarioSuite() collects it, so a violation names the spec file, the
// scenario and the JSON path, exactly as `live-evals validate` would for a dataset.
import type { z } from 'zod'
import { type LoadedScenario, parseDataset, type ScenarioSchema } from '../scenarios/index.ts'

/** A scenario as written (defaults may be left out), typed from the contract. */
export type ScenarioDefinition = z.input<typeof ScenarioSchema>

/** Types a scenario for a spec file; the contract checks it when the suite collects it. */
export function defineScenario(scenario: ScenarioDefinition): ScenarioDefinition {
  return scenario
}

/**
 * Validates inline scenarios as one dataset of the spec file: every violation is listed with the spec file,
 * the scenario id and its path (`scenarios[1].expected.tools.required[0].name`); recordings resolve from the
 * spec file's folder. Throws DatasetValidationError.
 */
export function inlineDataset(scenarios: readonly ScenarioDefinition[], specFile: string): LoadedScenario[] {
  return parseDataset(JSON.stringify({ schema_version: '1.0', scenarios }), specFile).scenarios
}
