// What a live-evals project resolves once per Vitest start, in the main process: the phase's settings (the
// `.env` file, environment variables and TOML, highest first), the run name, and, in a run started by
// `live-evals explain`, its re-run plan (LIVE_EVALS_EXPLAIN_PLAN), whose recorded settings (how the explained run
// ran: mode, models, clock) and trial count then override the others. A problem is kept, not thrown: it is
// reported by the global setup, and only when the project actually runs, so a bad setting never breaks
// `vitest --project unit`.
import { resolve } from 'node:path'
import {
  type Environment,
  HarnessConfigError,
  loadEnvironment,
  loadPhaseConfig,
  type Phase,
  type PhaseSettings,
  type SettingsOverrides,
} from '../../config/index.ts'
import { EXPLAIN_PLAN_VARIABLE, type LoadedRerunPlan, readRerunPlan } from '../../explain/rerun-plan.ts'
import { runNameFrom } from './run-name.ts'

export type Startup =
  | { ok: true; settings: PhaseSettings; runName: string | null; rerunPlan: LoadedRerunPlan | null }
  | { ok: false; error: unknown }

/** The re-run plan `live-evals explain` named for this run, or null; it must be this phase's. */
function rerunPlanFrom(env: Environment, phase: Phase, cwd: string): LoadedRerunPlan | null {
  const file = env[EXPLAIN_PLAN_VARIABLE]?.trim() ?? ''
  if (file === '') return null
  const plan = readRerunPlan(resolve(cwd, file))
  if (plan.phase !== phase) {
    throw new HarnessConfigError([
      `${EXPLAIN_PLAN_VARIABLE} re-runs a ${plan.phase} scenario, not one of this ${phase} project; name the ${plan.phase} project`,
    ])
  }
  return plan
}

export interface StartupOptions {
  env?: Environment
  /** Folder relative paths in the environment are resolved from; defaults to process.cwd(). */
  cwd?: string
}

export function resolveStartup(
  phase: Phase,
  configFile: string | null,
  options: StartupOptions = {},
): Startup {
  const cwd = options.cwd ?? process.cwd()
  try {
    const env = loadEnvironment({ env: options.env ?? process.env, cwd })
    const rerunPlan = rerunPlanFrom(env, phase, cwd)
    const settings = loadPhaseConfig(phase, configFile, {
      env,
      cwd,
      ...(rerunPlan === null ? {} : { overrides: rerunPlan.settings as SettingsOverrides<Phase> }),
    })
    return { ok: true, settings, runName: rerunPlan === null ? runNameFrom(env) : null, rerunPlan }
  } catch (error) {
    return { ok: false, error }
  }
}
