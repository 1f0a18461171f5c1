// Values a live-evals phase project shares through Vitest's provide/inject: the project options with what was
// resolved at start (provided by the plugin) and the current run (provided by the global setup). Both carry the
// settings, credentials included, so neither is ever written to a report; test files carry a RunStamp instead.
// The current run is one value: its plan, or, for a watch-mode rerun that could not be planned (its dataset or
// config.toml saved broken, its live check refused), the problem instead. The previous run's plan is then
// withdrawn with the same provide, so no runner, fixture or reporter mistakes the rerun for the previous run, and
// the runner fails each test file with the problem. A watch rerun of other projects' spec files only leaves the
// value as it was: it is this project's last run, which the canonical reporter leaves out of that rerun.

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

/** The current run: planned, or not started, with the problem printed for it (the text a test file fails with). */
export type LiveEvalsRun = { state: 'planned'; plan: RunPlan } | { state: 'not_started'; problem: string }

declare module 'vitest' {
  interface ProvidedContext {
    liveEvalsProject: LiveEvalsProjectOptions
    liveEvalsRun: LiveEvalsRun
  }
}

/** Either value is absent where its provider did not run (a project not built with liveEvalsProject()). */
type Provided = Partial<Pick<ProvidedContext, 'liveEvalsProject' | 'liveEvalsRun'>>

/**
 * The project options, or an error that says how to configure the project: named as Vitest names it (an unnamed
 * project is "this Vitest project"), with the import an installed user writes and where to run Vitest from (a run
 * started from another folder, such as specs/, finds no vitest.config.ts and has no live-evals project).
 */
export function projectOptionsOf(
  provided: Provided,
  projectName: string | undefined,
): LiveEvalsProjectOptions {
  const options = provided.liveEvalsProject
  if (options === undefined) {
    const project = projectName ? `Vitest project "${projectName}"` : 'This Vitest project'
    throw new Error(
      `${project} runs live-evals suites but was not configured for them. In vitest.config.ts, ` +
        "build it with liveEvalsProject({ phase, config }) (import { liveEvalsProject } from 'live-evals/vitest'), " +
        'and run Vitest from the folder that holds that vitest.config.ts (npx vitest run), not from specs/',
    )
  }
  return options
}

/** The run plan, or an error: why this rerun could not be planned, or that the global setup did not run. */
export function runPlanOf(provided: Provided): RunPlan {
  const run = provided.liveEvalsRun
  if (run === undefined) {
    throw new Error(
      'No live-evals run plan was provided: the project must list src/vitest/global-setup.ts in globalSetup ' +
        '(liveEvalsProject() does this)',
    )
  }
  if (run.state === 'not_started') throw new Error(run.problem.trimEnd())
  return run.plan
}
