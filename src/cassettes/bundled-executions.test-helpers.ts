// Every bundled scenario of CRAWL, WALK and RUN through the engine, the way a spec file's test runs it (the
// liveSession fixture: the caller's request prepared first, then runScenario with the test's application and the
// judge), in either architecture, with settings read from a config.toml as a run reads them. For the cassette
// tests and bench/replay.ts: a live recording against the dress-rehearsal server, and its replay.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { AssistantApplication } from '../assistants/application.ts'
import type { Architecture } from '../assistants/frontend/index.ts'
import type { PhaseSettings } from '../config/index.ts'
import { scenarioFaultChoice } from '../faults/scenario-profile.ts'
import { judgeOptionsFromSettings } from '../grading/judge/options-from-settings.ts'
import { crawlPhase } from '../phases/crawl/index.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import type { ScenarioEnv, ScenarioExecution } from '../phases/engine/execution.ts'
import type { PhaseModule } from '../phases/engine/phase-module.ts'
import { runScenario } from '../phases/engine/run-scenario.ts'
import { scenarioApplicationFor } from '../phases/engine/scenario-application.ts'
import { runPhase } from '../phases/run/index.ts'
import { settingsFromToml } from '../phases/single-turn/test-support.ts'
import { walkPhase } from '../phases/walk/index.ts'
import { loadDataset, type Scenario } from '../scenarios/index.ts'
import type { OfflineLiveServer } from '../testing/live-server/index.ts'
import { ROOT } from '../vitest/child-vitest.test-helpers.ts'

export type BundledPhase = 'crawl' | 'walk' | 'run'

/** The bundled datasets of each phase (RUN: the restaurant set with its policy scenarios, the reference-style set, the faults). */
export const BUNDLED_DATASETS: Readonly<Record<BundledPhase, readonly string[]>> = {
  crawl: [join(ROOT, 'scenarios/crawl/restaurant.json')],
  walk: [join(ROOT, 'scenarios/walk/restaurant.json')],
  run: [
    join(ROOT, 'scenarios/run/restaurant.json'),
    join(ROOT, 'scenarios/run/reference-style.json'),
    join(ROOT, 'scenarios/run/faults.json'),
  ],
}

const PHASES = { crawl: crawlPhase, walk: walkPhase, run: runPhase } as const
export const ARCHITECTURES: readonly Architecture[] = ['responses', 'client']

/** One bundled scenario in one architecture: a row of a bundled run. */
export interface BundledCase {
  phase: BundledPhase
  dataset: string
  scenario: Scenario
  architecture: Architecture
  /** `<scenario id>__<architecture>`: the row's cassette id. */
  id: string
}

export async function bundledCases(phases: readonly BundledPhase[]): Promise<BundledCase[]> {
  const cases: BundledCase[] = []
  for (const phase of phases) {
    for (const dataset of BUNDLED_DATASETS[phase]) {
      const loaded = await loadDataset(dataset)
      for (const scenario of loaded.scenarios as Scenario[]) {
        for (const architecture of ARCHITECTURES) {
          cases.push({ phase, dataset, scenario, architecture, id: `${scenario.id}__${architecture}` })
        }
      }
    }
  }
  return cases
}

/**
 * RUN calls end by 46 s of audio in the dress rehearsal (run_012's caller goes on after its backchannel, as offline,
 * and the interrupting callers barge in): 50 s keeps every call whole and a recording about as long as the longest.
 */
export const MAX_CALL_SECONDS = 50

/**
 * The environment of a live recording against the dress-rehearsal server: the server's own (endpoint, loopback
 * opt-in), recording on, and `apiKey`, a sentinel the cassettes must not keep.
 */
export function rehearsalRecordingEnv(
  server: { env: Readonly<Record<string, string>> },
  apiKey: string,
): Record<string, string> {
  return { ...server.env, LIVE_EVALS_MODE: 'live', LIVE_EVALS_RECORD: '1', OPENAI_API_KEY: apiKey }
}

/** The config.toml lines of a bundled recording and its replay: the cassettes folder, bounded RUN calls. */
export function bundledToml(phase: BundledPhase, cassettes: string): string[] {
  return [
    '[execution]',
    `cassettes_dir = ${JSON.stringify(cassettes)}`,
    '[grading]',
    // Every row asks the judge itself (through its cassette), never a judgment another row cached.
    'cache = false',
    ...(phase === 'run' ? ['[simulation]', `max_duration_seconds = ${MAX_CALL_SECONDS}`] : []),
  ]
}

/** One settings object per bundled dataset of `phases` (bundledToml, and `env`), as a run reads its config.toml. */
export async function bundledSettingsByDataset(
  phases: readonly BundledPhase[],
  env: Record<string, string>,
  cassettes: string,
): Promise<Map<string, PhaseSettings>> {
  const settings = new Map<string, PhaseSettings>()
  for (const phase of phases) {
    for (const dataset of BUNDLED_DATASETS[phase]) {
      settings.set(dataset, await bundledSettings(phase, dataset, env, bundledToml(phase, cassettes)))
    }
  }
  return settings
}

/** A phase's settings for one dataset: its config.toml of `toml` lines, read with the environment `env` only. */
export function bundledSettings(
  phase: BundledPhase,
  dataset: string,
  env: Record<string, string>,
  toml: readonly string[] = [],
): Promise<PhaseSettings> {
  return settingsFromToml(phase, ['[dataset]', `path = ${JSON.stringify(dataset)}`, ...toml], env)
}

/**
 * Runs one case through the engine as the Vitest fixtures do, its artifacts under `runDirectory`; `application`
 * replaces the bundled restaurant's (a pull request changing the assistant). Offline settings need the offline
 * GPT-Live server their sessions run on (the fixtures start one per file); live and replay runs need none.
 */
export async function executeCase(
  kase: BundledCase,
  settings: PhaseSettings,
  runDirectory: string,
  application?: AssistantApplication,
  offlineServer: OfflineLiveServer | null = null,
): Promise<ScenarioExecution> {
  await mkdir(runDirectory, { recursive: true })
  const phase = PHASES[kase.phase] as unknown as PhaseModule<unknown, ScenarioExecution, PhaseSettings>
  const callerSource = phase.callerSource(settings)
  const architecture = architectureFor(kase.architecture, settings, application ? { application } : {})
  const env: ScenarioEnv<PhaseSettings> = {
    settings,
    runDirectory,
    offlineServer,
    architecture,
    callerSource,
    judge: judgeOptionsFromSettings(settings, { runDirectory }),
    // The run's fault profile, else the scenario's own tag, as the spec fixture chooses it (src/vitest/fixtures.ts):
    // without it the fault scenarios ran clean, failing offline and live alike for the wrong reason.
    ...scenarioFaultChoice(kase.scenario, settings.execution.faults),
  }
  const callerAudio = await callerSource.prepare(kase.scenario, {})
  return runScenario(phase, kase.scenario, env, {
    callerAudio,
    // Under the scenario's fault profile, as the engine builds it for a spec's test.
    application: scenarioApplicationFor(env, kase.scenario),
  })
}
