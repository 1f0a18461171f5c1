// The settings the re-runs use: the phase's settings as a run would read them (the --config TOML, or
// LIVE_EVALS_CONFIG, then the environment and the built-in defaults), with everything the run's results.json
// recorded about how it ran laid over them, so a re-run runs as the run did: its mode, architecture, models,
// audio frames and, for RUN, the simulation's clock, preset and deadlines. What results.json does not record
// (RUN's interventions file, drain and duration limits) comes from the settings; name the run's TOML with
// --config when it was not the default.
import type { Phase, PhaseSettings, SettingsOverrides } from '../config/index.ts'
import { HarnessConfigError, loadPhaseConfig } from '../config/index.ts'
import type { SourceRun } from './source-run.ts'

export interface RerunSettingsOptions {
  /** A phase config.toml; null reads none unless LIVE_EVALS_CONFIG names one. */
  config: string | null
  env: Record<string, string | undefined>
  cwd: string
  /** The explain settings given on the command line (they beat the TOML and the environment). */
  explain: Partial<PhaseSettings['explain']>
}

type Configuration = Record<string, unknown>

const textOf = (configuration: Configuration, key: string): string | undefined => {
  const value = configuration[key]
  return typeof value === 'string' && value !== '' ? value : undefined
}
const numberOf = (configuration: Configuration, key: string): number | undefined => {
  const value = configuration[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** Keeps only the keys whose value is known, so an unrecorded key leaves the settings' own value. */
function known<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}

/** What the run recorded, as setting overrides. */
function recordedOverrides(run: SourceRun, mode: 'offline' | 'live'): SettingsOverrides<Phase> {
  const configuration = run.document.run.configuration as Configuration
  const common = {
    // One re-run per call; explain repeats them itself. Nothing is recorded into cassettes.
    execution: { mode, trials: 1, record: false },
    assistant: { mode: run.architecture },
    models: known({
      live_model: textOf(configuration, 'model'),
      backend_model: textOf(configuration, 'backend_model'),
      live_voice: textOf(configuration, 'voice'),
    }),
    // Re-runs are graded by the deterministic checks: a judge may summarise a failure, never decide it.
    grading: { enabled: false },
  }
  if (run.module === 'run') {
    return {
      ...common,
      simulation: known({
        tick_ms: numberOf(configuration, 'tick_ms'),
        condition: textOf(configuration, 'audio_condition'),
        seed: numberOf(configuration, 'seed'),
        response_deadline_ms: numberOf(configuration, 'response_deadline_ms'),
        completion_timeout_seconds: numberOf(configuration, 'completion_timeout_seconds'),
        work_grace_seconds: numberOf(configuration, 'work_grace_seconds'),
        cleanup_timeout_seconds: numberOf(configuration, 'cleanup_timeout_seconds'),
      }),
    } as SettingsOverrides<Phase>
  }
  return {
    ...common,
    audio: known({
      chunk_ms: numberOf(configuration, 'chunk_ms'),
      sample_rate_hz: numberOf(configuration, 'sample_rate_hz'),
      // Offline re-runs stay on the virtual clock (deterministic); live always paces in real time.
      real_time: mode === 'offline' ? false : undefined,
    }),
  } as SettingsOverrides<Phase>
}

/** The re-runs' settings; a HarnessConfigError names every bad setting (file, variable or flag). */
export function rerunSettings(
  run: SourceRun,
  mode: 'offline' | 'live',
  options: RerunSettingsOptions,
): PhaseSettings {
  const overrides = recordedOverrides(run, mode)
  const explain = known(options.explain)
  try {
    return loadPhaseConfig(run.module, options.config, {
      env: options.env,
      cwd: options.cwd,
      overrides: { ...overrides, ...(Object.keys(explain).length === 0 ? {} : { explain }) },
    })
  } catch (error) {
    if (error instanceof HarnessConfigError) throw error
    throw new HarnessConfigError([`the settings for the re-runs cannot be read: ${(error as Error).message}`])
  }
}
