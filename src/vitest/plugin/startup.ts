// What a live-evals project resolves once per Vitest start, in the main process: the phase's settings (the
// `.env` file, environment variables and TOML, highest first) and the run name. A problem is kept, not thrown:
// it is reported by the global setup, and only when the project actually runs, so a bad setting never breaks
// `vitest --project unit`.
import {
  type Environment,
  loadEnvironment,
  loadPhaseConfig,
  type Phase,
  type PhaseSettings,
} from '../../config/index.ts'
import { runNameFrom } from './run-name.ts'

export type Startup =
  | { ok: true; settings: PhaseSettings; runName: string | null }
  | { ok: false; error: unknown }

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
    const settings = loadPhaseConfig(phase, configFile, { env, cwd })
    return { ok: true, settings, runName: runNameFrom(env) }
  } catch (error) {
    return { ok: false, error }
  }
}
