// A phase's settings as a Vitest run sees them. Vitest owns the command line, so settings arrive through the
// environment (and the `.env` file it names), layered over the phase's module-owned config.toml. A run resolves
// them once, in the main process (plugin/startup.ts, when Vitest starts), and hands them to workers in the run
// plan; loadSuiteSettings is the same resolution for tests and tools outside a run.
import { resolve } from 'node:path'
import {
  type Environment,
  loadEnvironment,
  loadPhaseConfig,
  type Phase,
  type SettingsFor,
} from '../config/index.ts'

export const ASSISTANT_ARCHITECTURES = ['responses', 'client'] as const
export type AssistantArchitecture = (typeof ASSISTANT_ARCHITECTURES)[number]

export interface SuiteSettingsOptions {
  env?: Environment
  /** Folder relative paths in the environment are resolved from; defaults to process.cwd(). */
  cwd?: string
}

/** The phase's resolved settings: `.env` file, environment variables and TOML, highest first. */
export function loadSuiteSettings<P extends Phase>(
  phase: P,
  configFile: string,
  options: SuiteSettingsOptions = {},
): SettingsFor<P> {
  const cwd = options.cwd ?? process.cwd()
  const env = loadEnvironment({ env: options.env ?? process.env, cwd })
  return loadPhaseConfig(phase, configFile, { env, cwd })
}

/**
 * Which assistant architectures a run evaluates. A mode that somebody chose (OPENAI_ASSISTANT_MODE, an
 * `[assistant] mode` in the TOML file, or an override) restricts the run to that architecture; when nobody
 * chose one, both are evaluated, each in its own run directory, so the two can be compared.
 */
export function architecturesToEvaluate(settings: SettingsFor<Phase>): AssistantArchitecture[] {
  const origin = settings.origins['assistant.mode']
  if (origin === undefined || origin.source === 'default') return [...ASSISTANT_ARCHITECTURES]
  return [settings.assistant.mode]
}

/** Where runs are written: `execution.results_dir` when set, else `results/<phase>/` under the project root. */
export function resultsDirectory(settings: SettingsFor<Phase>, projectRoot: string): string {
  return settings.execution.results_dir ?? resolve(projectRoot, 'results', settings.phase)
}
