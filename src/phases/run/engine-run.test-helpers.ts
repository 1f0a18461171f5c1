// One RUN scenario through the whole engine (drive → observe → assess → record), offline, in a fresh run folder:
// what the RUN tests of a user's own assistant (offline rules, self-check advice) each set up the same way.
import type { AssistantArchitecture } from '../../assistants/architectures/index.ts'
import type { RunSettings } from '../../config/index.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import { runScenario } from '../engine/run-scenario.ts'
import { scenarioApplicationFor } from '../engine/scenario-application.ts'
import { freshRunDirectory } from '../single-turn/test-support.ts'
import { runCallerSource, runPhase } from './index.ts'

/** Runs `scenario` against `server`; its run folder (returned too) is pushed onto `folders`, which the caller removes. */
export async function executeOfflineRun(
  scenario: Scenario,
  setup: {
    server: OfflineLiveServer
    settings: RunSettings
    architecture: AssistantArchitecture
    folders: string[]
  },
) {
  const runDirectory = await freshRunDirectory()
  setup.folders.push(runDirectory)
  const env: ScenarioEnv<RunSettings> = {
    settings: setup.settings,
    runDirectory,
    offlineServer: setup.server,
    architecture: setup.architecture,
    callerSource: runCallerSource,
  }
  const execution = await runScenario(runPhase, scenario, env, {
    application: scenarioApplicationFor(env, scenario),
  })
  return { execution, runDirectory }
}
