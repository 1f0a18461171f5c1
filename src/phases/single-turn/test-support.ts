// Test helpers for single-turn executions against the real offline GPT-Live server: CRAWL settings from a
// temporary TOML, a reserved run directory, an environment per architecture, and the engine run the way the
// Vitest fixtures run it.

import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Architecture } from '../../assistants/frontend/index.ts'
import { type CrawlSettings, loadPhaseConfig, type Phase, type SettingsFor } from '../../config/index.ts'
import { loadDataset, type Scenario } from '../../scenarios/index.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import { crawlPhase } from '../crawl/index.ts'
import { architectureFor } from '../engine/architecture-choice.ts'
import { syntheticCallerSource } from '../engine/caller-sources.ts'
import type { ScenarioEnv, SingleTurnExecution, SingleTurnSettings } from '../engine/execution.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { PhaseModule } from '../engine/phase-module.ts'
import { type RunScenarioOptions, runScenario } from '../engine/run-scenario.ts'
import { scenarioApplicationFor } from '../engine/scenario-application.ts'

export const BUNDLED_CRAWL_DATASET = join(import.meta.dirname, '../../../scenarios/crawl/restaurant.json')

/**
 * A phase's settings from a config.toml of these lines written to a temporary folder, read with an explicit
 * environment (never the process's), as a run would read them.
 */
export async function settingsFromToml<P extends Phase>(
  phase: P,
  lines: readonly string[],
  env: Record<string, string> = {},
): Promise<SettingsFor<P>> {
  const toml = join(await mkdtemp(join(tmpdir(), `live-evals-${phase}-`)), 'config.toml')
  await writeFile(toml, [...lines, ''].join('\n'))
  return loadPhaseConfig(phase, toml, { env })
}

export function offlineCrawlSettings(overrides: { timeoutSeconds?: number } = {}): Promise<CrawlSettings> {
  return settingsFromToml('crawl', [
    '[dataset]',
    `path = ${JSON.stringify(BUNDLED_CRAWL_DATASET)}`,
    '[execution]',
    'mode = "offline"',
    `response_timeout_seconds = ${overrides.timeoutSeconds ?? 30}`,
    '[audio]',
    'real_time = false',
  ])
}

export async function bundledCrawlScenario(id: string): Promise<Scenario> {
  const dataset = await loadDataset(BUNDLED_CRAWL_DATASET)
  const scenario = dataset.scenarios.find((candidate) => candidate.id === id)
  if (scenario === undefined) throw new Error(`bundled CRAWL dataset has no scenario ${id}`)
  return scenario as Scenario
}

export async function freshRunDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'live-evals-run-'))
}

/** An offline environment: the architecture as the run would choose it, the synthetic caller voice. */
export function offlineEnv(
  settings: CrawlSettings,
  server: OfflineLiveServer,
  runDirectory: string,
  architecture: Architecture,
  extra: Partial<ScenarioEnv> = {},
): ScenarioEnv {
  return {
    settings,
    runDirectory,
    offlineServer: server,
    architecture: architectureFor(architecture, settings),
    callerSource: syntheticCallerSource,
    ...extra,
  }
}

/** One scenario through the engine, with a fresh application unless the test brings its own. */
export function executeScenario(
  scenario: Scenario,
  env: ScenarioEnv,
  options: Partial<RunScenarioOptions> = {},
  phase: PhaseModule<ObservedConversation, SingleTurnExecution, SingleTurnSettings> = crawlPhase,
): Promise<SingleTurnExecution> {
  return runScenario(phase, scenario, env, {
    ...options,
    application: options.application ?? scenarioApplicationFor(env, scenario),
  })
}
