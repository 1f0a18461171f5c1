// Builders for RUN driver tests: a bundled RUN scenario played offline through the scripted caller.
import {
  type AssistantArchitecture,
  clientDelegation,
  responsesDelegation,
} from '../../assistants/architectures/index.ts'
import { models } from '../../assistants/assistant-session.fixtures.ts'
import type { RunSettings } from '../../config/index.ts'
import { loadDataset } from '../../scenarios/load.ts'
import type { Scenario } from '../../scenarios/scenario.ts'
import { assistantVisibleInput } from '../../scenarios/visible.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import { settingsFromToml } from '../single-turn/test-support.ts'
import { type CompletionRules, DEFAULT_COMPLETION, runOfflineConversation } from './conversation.ts'
import type { Intervention } from './interventions/schema.ts'

export { DEFAULT_COMPLETION }

import { scriptedCallerLines } from './offline-caller.ts'

export const ARCHITECTURES: Record<'responses' | 'client', () => AssistantArchitecture> = {
  responses: () => responsesDelegation(),
  client: () => clientDelegation(),
}

/** The bundled restaurant RUN dataset. */
export const BUNDLED_RUN_DATASET = new URL('../../../scenarios/run/restaurant.json', import.meta.url).pathname

/** The config.toml lines of an offline RUN of `dataset` on the driver tests' 100 ms tick, with more `[simulation]` lines. */
export function offlineRunLines(
  dataset: string = BUNDLED_RUN_DATASET,
  simulation: readonly string[] = [],
): string[] {
  return [
    '[dataset]',
    `path = ${JSON.stringify(dataset)}`,
    '[execution]',
    'mode = "offline"',
    '[simulation]',
    'tick_ms = 100',
    ...simulation,
  ]
}

/** The settings of those lines (offlineRunLines), read as a run reads its config.toml. */
export function offlineRunSettings(
  dataset: string = BUNDLED_RUN_DATASET,
  simulation: readonly string[] = [],
): Promise<RunSettings> {
  return settingsFromToml('run', offlineRunLines(dataset, simulation))
}

/** A scenario of a bundled RUN dataset (scenarios/run/<file>): the restaurant one by default. */
export async function bundledRunScenario(id: string, file = 'restaurant.json'): Promise<Scenario> {
  const dataset = await loadDataset(new URL(`../../../scenarios/run/${file}`, import.meta.url).pathname)
  const scenario = dataset.scenarios.find((candidate) => candidate.id === id)
  if (scenario === undefined) throw new Error(`no bundled RUN scenario ${id} in ${file}`)
  return scenario as Scenario
}

export async function playBundled(
  server: OfflineLiveServer,
  scenario: Scenario,
  architectureName: keyof typeof ARCHITECTURES,
  assistantFirstPrompt: string | null = null,
  completion?: CompletionRules,
  interventions?: readonly Intervention[],
) {
  const architecture = ARCHITECTURES[architectureName]()
  const visibleInput = assistantVisibleInput(scenario)
  const parameters = scenario.simulation_parameters
  if (parameters === null) throw new Error(`${scenario.id} has no simulation parameters`)
  return runOfflineConversation({
    setup: { server, visibleInput, architecture, models, stepMs: 100, assistantFirstPrompt },
    lines: scriptedCallerLines(parameters, scenario.input.text),
    application: architecture.createApplication(visibleInput),
    rehearsalApplication: () => architecture.createApplication(visibleInput),
    ...(completion === undefined ? {} : { completion }),
    ...(interventions === undefined ? {} : { interventions }),
  })
}
