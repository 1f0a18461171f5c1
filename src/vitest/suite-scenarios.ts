// Which scenarios a suite registers. A suite that names no dataset runs the run plan's (the TOML's
// `dataset.path` or LIVE_EVALS_DATASET, validated once in the main process). A suite that names its own dataset
// (relative to its spec file) or writes its scenarios inline is only known here, at collection in the worker:
// it is validated by the same contract, selected for the phase and split for the shard the same way.
// Such a suite does not run LIVE_EVALS_DATASET's dataset. That is by design (the spec file is more specific than a
// run-wide setting, and `live-evals grade --cassettes --dataset` sets it for whole projects), so it is no error,
// but a variable set for this run must not be ignored without a word: the suite says so, once, when it is collected.
// The TOML's `dataset.path` is the project's default, which such a suite ignores as the README documents; saying
// so on every run would be noise (the bundled RUN specs name their own datasets beside the TOML's).
import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inlineDataset, type ScenarioDefinition } from '../define/scenario.ts'
import { projectRelativePath } from '../reporting/project-path.ts'
import { type LoadedScenario, parseDataset, selectScenarios } from '../scenarios/index.ts'
import { itemsOfShard } from './plugin/shard.ts'
import type { RunPlan } from './run-plan-schema.ts'

export interface SuiteScenarioSource {
  /** A dataset file: a URL, an absolute path, or a path relative to the spec file. */
  dataset?: string | URL
  /** Scenarios written in the spec file (see defineScenario). */
  scenarios?: readonly ScenarioDefinition[]
}

export interface SuiteScenarios {
  scenarios: LoadedScenario[]
  /**
   * Where they came from, for run.configuration: the dataset file, the spec file, or the run plan's dataset,
   * relative to the project (as results.json names it).
   */
  source: string
  /** Why LIVE_EVALS_DATASET, set for this run, does not apply to this suite; null when it is not set or applies. */
  unusedDataset: string | null
}

type ScenarioPlan = Pick<
  RunPlan,
  'phase' | 'scenarios' | 'dataset' | 'projectRoot' | 'datasetProblem' | 'shard' | 'settings'
>

/**
 * The line a suite with scenarios of its own prints when LIVE_EVALS_DATASET names another dataset. `own.file` is
 * absolute. The variable's dataset is named by the plan's `dataset`, the file the main process resolved and loaded:
 * resolving the settings' path again here would resolve it against the worker's folder, were it ever relative.
 */
export function unusedDatasetNotice(
  plan: Pick<RunPlan, 'projectRoot' | 'settings' | 'dataset'>,
  specFile: string,
  own: { kind: 'inline' } | { kind: 'dataset'; file: string },
): string | null {
  const origin = plan.settings.origins['dataset.path']
  if (origin?.source !== 'env') return null
  // A suite that names the very file the variable names runs it: nothing is left unused.
  if (own.kind === 'dataset' && resolve(own.file) === resolve(plan.dataset)) return null
  const at = (file: string) => projectRelativePath(plan.projectRoot, resolve(file))
  const instead =
    own.kind === 'inline'
      ? 'its scenarioSuite() writes its scenarios inline'
      : `its scenarioSuite() names its own dataset ${at(own.file)}`
  return (
    `live-evals: ${origin.variable} (${at(plan.dataset)}) is not used by ${at(specFile)}: ${instead}; ` +
    `${origin.variable} replaces only the dataset of a suite that names neither a dataset nor scenarios`
  )
}

export async function suiteScenarios(
  source: SuiteScenarioSource,
  plan: ScenarioPlan,
  specFile: string,
): Promise<SuiteScenarios> {
  if (source.dataset !== undefined && source.scenarios !== undefined) {
    throw new Error(`${specFile}: scenarioSuite takes a dataset or inline scenarios, not both`)
  }
  if (source.dataset === undefined && source.scenarios === undefined) {
    if (plan.datasetProblem !== null) throw new Error(`${specFile}: ${plan.datasetProblem}`)
    return {
      scenarios: plan.scenarios,
      source: projectRelativePath(plan.projectRoot, plan.dataset),
      unusedDataset: null,
    }
  }
  let loaded: LoadedScenario[]
  let origin: string
  if (source.dataset !== undefined) {
    origin =
      source.dataset instanceof URL
        ? fileURLToPath(source.dataset)
        : resolve(dirname(specFile), source.dataset)
    let text: string
    try {
      text = await readFile(origin, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      throw new Error(
        `${specFile}: scenarioSuite's dataset ${origin} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}; ` +
          'a relative path resolves from the spec file',
      )
    }
    loaded = parseDataset(text, origin).scenarios
  } else {
    origin = specFile
    loaded = inlineDataset(source.scenarios ?? [], specFile)
  }
  const selected = selectScenarios(loaded, plan.phase, { maxExamples: plan.settings.execution.max_examples })
  return {
    scenarios: itemsOfShard(selected, plan.shard),
    source: projectRelativePath(plan.projectRoot, origin),
    unusedDataset: unusedDatasetNotice(
      plan,
      specFile,
      source.dataset === undefined ? { kind: 'inline' } : { kind: 'dataset', file: origin },
    ),
  }
}
