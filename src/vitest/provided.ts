// Values a live-evals phase project shares through Vitest's provide/inject: the project options with what was
// resolved at start (provided by the plugin) and the run plan (provided by the global setup). Both carry the
// settings, credentials included, so neither is ever written to a report; test files carry a RunStamp instead.
// A watch-mode rerun that cannot be planned (its dataset or config.toml saved broken) has no plan: the previous
// run's is withdrawn, so no runner, fixture or reporter mistakes the rerun for the previous run, and the problem
// is provided instead, for the runner to fail each test file with.

import type { ProvidedContext } from 'vitest'
import type { Phase } from '../config/index.ts'
import type { Startup } from './plugin/startup.ts'
import type { RunPlan } from './run-plan-schema.ts'

export interface LiveEvalsProjectOptions {
  phase: Phase
  /** Absolute path of the phase's module-owned config.toml (LIVE_EVALS_CONFIG may name another). */
  configFile: string | null
  /** Tags the project declares, so scenario tags never break collection under strictTags. */
  declaredTags: string[]
  /** The settings and run name resolved when Vitest started, or why they could not be. */
  startup: Startup
  /** Where this phase's runs are written (null when the settings did not resolve). */
  resultsDir: string | null
}

declare module 'vitest' {
  interface ProvidedContext {
    liveEvalsProject: LiveEvalsProjectOptions
    /** The current run's plan; undefined while a rerun could not be planned. */
    liveEvalsRun: RunPlan | undefined
    /** Why the current rerun could not be planned (the text printed for it); null when it was planned. */
    liveEvalsRunProblem: string | null
  }
}

type Provided = Partial<Pick<ProvidedContext, 'liveEvalsProject' | 'liveEvalsRun' | 'liveEvalsRunProblem'>>

/** The project options, or an error that says how to configure the project. */
export function projectOptionsOf(provided: Provided, projectName: string): LiveEvalsProjectOptions {
  const options = provided.liveEvalsProject
  if (options === undefined) {
    throw new Error(
      `Vitest project "${projectName}" runs live-evals suites but was not configured for them; ` +
        'build it with liveEvalsProject({ phase, config }) from src/vitest/project.ts in vitest.config.ts',
    )
  }
  return options
}

/** The run plan, or an error: why this rerun could not be planned, or that the global setup did not run. */
export function runPlanOf(provided: Provided): RunPlan {
  const plan = provided.liveEvalsRun
  if (typeof provided.liveEvalsRunProblem === 'string')
    throw new Error(provided.liveEvalsRunProblem.trimEnd())
  if (plan === undefined) {
    throw new Error(
      'No live-evals run plan was provided: the project must list src/vitest/global-setup.ts in globalSetup ' +
        '(liveEvalsProject() does this)',
    )
  }
  return plan
}
