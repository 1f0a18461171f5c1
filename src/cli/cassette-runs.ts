// Which Vitest run re-executes the scenarios of one phase's cassettes (`grade --cassettes` replays them, `drift`
// records them again): the project is the phase's (liveEvalsProject names it after the phase unless told
// otherwise), the test name filter selects exactly the recorded scenarios in their recorded architectures, and
// the environment carries the folder, the architecture when only one was recorded, the trials and the live model
// the cassettes were recorded with (a replay refuses any other).
import type { PhaseCassettes } from '../cassettes/catalogue.ts'

export interface CassetteRunOptions {
  /** The Vitest config file; absent: Vitest's own lookup from the working directory. */
  vitestConfig: string | null
  /** The Vitest project; absent: the phase's name. */
  project: string | null
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Vitest's `-t` pattern for the recorded scenarios: a test's full name is its suites' names and its own joined by
 * ` > ` (`[<model> > ]<architecture> > <scenario id> > <title>`), so each architecture is followed by the ids
 * recorded in it.
 */
export function testNamePattern(phase: PhaseCassettes): string {
  const byArchitecture = new Map<string, Set<string>>()
  for (const header of phase.headers) {
    const ids = byArchitecture.get(header.architecture) ?? new Set<string>()
    ids.add(header.scenario_id)
    byArchitecture.set(header.architecture, ids)
  }
  const alternatives = [...byArchitecture].map(
    ([architecture, ids]) =>
      `${escapeRegExp(architecture)} > (?:${[...ids].sort().map(escapeRegExp).join('|')})`,
  )
  return `(?:^| > )(?:${alternatives.join('|')}) > `
}

/** The settings a run of these cassettes needs, as environment variables; null values are to be removed. */
export function cassetteRunEnvironment(phase: PhaseCassettes): Record<string, string | null> | string {
  const architectures = new Set(phase.headers.map((header) => header.architecture))
  const models = new Set(phase.headers.map((header) => header.models.live_model ?? ''))
  if (models.size > 1) {
    return (
      `${phase.directory} holds cassettes recorded with several live models (${[...models].join(', ')}); ` +
      'one run replays one model: keep each model’s cassettes in its own folder'
    )
  }
  const trials = Math.max(...phase.headers.map((header) => header.trial ?? 1))
  const [model] = models
  return {
    LIVE_EVALS_CASSETTES: phase.directory,
    OPENAI_ASSISTANT_MODE: architectures.size === 1 ? ([...architectures][0] as string) : null,
    LIVE_EVALS_TRIALS: trials > 1 ? String(trials) : null,
    OPENAI_LIVE_MODEL: model === undefined || model === '' ? null : model,
    // One model per run: a models matrix would look for each model's cassettes.
    LIVE_EVALS_MODELS: null,
  }
}

export function vitestArguments(phase: PhaseCassettes, options: CassetteRunOptions): string[] {
  return [
    'run',
    ...(options.vitestConfig === null ? [] : ['--config', options.vitestConfig]),
    '--project',
    options.project ?? phase.phase,
    '-t',
    testNamePattern(phase),
  ]
}

/** `base` with `changes` applied (null removes a variable). */
export function withEnvironment(
  base: NodeJS.ProcessEnv,
  changes: Record<string, string | null>,
): NodeJS.ProcessEnv {
  const env = { ...base }
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete env[name]
    else env[name] = value
  }
  return env
}
