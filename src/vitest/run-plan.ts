// The run plan: everything a Vitest run of one phase decides once, in the main process, before any test is
// collected: the validated dataset, the scenarios selected, the execution mode, and one reserved run directory per
// assistant architecture. The global setup builds it and `provide`s it; workers and the canonical reporter read
// it. It is plain JSON (it crosses process boundaries) and holds no secret: the configuration block is redacted.
import { rmdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { z } from 'zod'
import { defaultRunLabel, reserveRunDirectory } from '../artifacts/index.ts'
import {
  assertLiveCredentials,
  credentialValues,
  type Phase,
  redactSecrets,
  type SettingsFor,
} from '../config/index.ts'
import { RunMetadataSchema } from '../reporting/result-schema.ts'
import { loadDataset, selectScenarios } from '../scenarios/index.ts'
import { phaseRunDescription } from './phase-runs.ts'
import {
  ASSISTANT_ARCHITECTURES,
  type AssistantArchitecture,
  architecturesToEvaluate,
  resultsDirectory,
} from './settings.ts'

export const PlannedRunSchema = z.strictObject({
  architecture: z.enum(ASSISTANT_ARCHITECTURES),
  /** Absolute path of the reserved, empty run directory. */
  directory: z.string().min(1),
  name: z.string().min(1),
  /** results.json `run` block for this run. */
  metadata: RunMetadataSchema,
})

export const RunPlanSchema = z.strictObject({
  phase: z.enum(['crawl', 'walk', 'run']),
  /** The TOML file that was read (LIVE_EVALS_CONFIG or the phase's own). */
  configFile: z.string().min(1),
  mode: z.enum(['offline', 'live']),
  /** Absolute path of the dataset file. */
  dataset: z.string().min(1),
  /** Ids of the selected scenarios, in dataset order. */
  scenarioIds: z.array(z.string()),
  runs: z.array(PlannedRunSchema).min(1),
})

export type PlannedRun = z.infer<typeof PlannedRunSchema>
export type RunPlan = z.infer<typeof RunPlanSchema>

/** A problem found while planning a run that is neither a configuration nor a dataset error (e.g. selection). */
export class RunPlanProblem extends Error {
  override name = 'RunPlanProblem'
}

/** The scenarios a phase runs with these settings; throws DatasetValidationError listing every violation. */
export async function selectedScenarios<P extends Phase>(settings: SettingsFor<P>) {
  const dataset = await loadDataset(settings.dataset.path)
  try {
    return selectScenarios(dataset.scenarios, settings.phase, {
      maxExamples: settings.execution.max_examples,
    })
  } catch (error) {
    throw new RunPlanProblem(`Dataset ${settings.dataset.path}: ${(error as Error).message}`)
  }
}

export interface PlanRunOptions {
  /** Project root: the default results folder is `results/<phase>/` under it. */
  projectRoot: string
  now?: Date
}

/**
 * Check the settings (a live run needs its key), validate the dataset, then reserve one run directory per
 * architecture. Nothing is created when any check fails.
 */
export async function planRun<P extends Phase>(
  settings: SettingsFor<P>,
  options: PlanRunOptions,
): Promise<RunPlan> {
  assertLiveCredentials(settings)
  const scenarios = await selectedScenarios(settings)
  const description = phaseRunDescription(settings.phase)
  const mode = settings.execution.mode
  const resultsDir = resultsDirectory(settings, options.projectRoot)
  const now = options.now ?? new Date()
  const runs: PlannedRun[] = []
  for (const architecture of architecturesToEvaluate(settings)) {
    const label = runLabel(settings.phase, mode, architecture)
    let reserved: Awaited<ReturnType<typeof reserveRunDirectory>>
    try {
      reserved = await reserveRunDirectory(resultsDir, label, now)
    } catch (error) {
      // All or nothing: a run that cannot start leaves no run directory behind.
      await releaseEmptyRunDirectories(runs)
      throw error
    }
    runs.push({
      architecture,
      directory: reserved.path,
      name: reserved.name,
      metadata: {
        id: reserved.name,
        module: settings.phase,
        execution_mode: mode === 'live' ? 'live' : 'offline_fixture',
        interaction: description.interaction,
        dataset: resolve(settings.dataset.path),
        configuration: redactedConfiguration(settings, description.configuration(settings, architecture)),
      },
    })
  }
  return RunPlanSchema.parse({
    phase: settings.phase,
    configFile: settings.config_file,
    mode,
    dataset: resolve(settings.dataset.path),
    scenarioIds: scenarios.map((scenario) => scenario.id),
    runs,
  })
}

/**
 * Removes the planned run directories that are still empty (`vitest list`, a `-t` that matched nothing in a
 * run, a run that could not start). Called once the run is over: removal only ever takes an empty directory
 * (rmdir), so a directory anything was written into, even concurrently, stays. Returns what was removed.
 */
export async function releaseEmptyRunDirectories(
  runs: readonly Pick<PlannedRun, 'directory'>[],
): Promise<string[]> {
  const removed: string[] = []
  for (const { directory } of runs) {
    try {
      await rmdir(directory)
      removed.push(directory)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Not empty: it holds the run's output. Gone already: nothing to release.
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw error
    }
  }
  return removed
}

/** The configuration block as it may be stored: secret-named fields and secret values (keys, tokens) redacted. */
function redactedConfiguration(settings: SettingsFor<Phase>, configuration: Record<string, unknown>) {
  const secretValues = credentialValues(settings)
  return redactSecrets(configuration, { extraNames: settings.redact_fields, secretValues }) as Record<
    string,
    unknown
  >
}

/** `<phase>_<mode>_<architecture>`: the reference label plus the architecture, since one run evaluates one. */
export function runLabel(
  phase: Phase,
  mode: 'offline' | 'live',
  architecture: AssistantArchitecture,
): string {
  return `${defaultRunLabel(phase, mode)}_${architecture}`
}

/** The planned run of one architecture; a clear error when the plan does not evaluate it. */
export function plannedRunFor(plan: RunPlan, architecture: AssistantArchitecture): PlannedRun {
  const run = plan.runs.find((candidate) => candidate.architecture === architecture)
  if (run === undefined) {
    throw new Error(
      `This run does not evaluate the ${architecture} architecture (it evaluates ${plan.runs
        .map((candidate) => candidate.architecture)
        .join(', ')}); check OPENAI_ASSISTANT_MODE`,
    )
  }
  return run
}
