// Which scenarios a suite registers. A suite that names no dataset runs the run plan's (the TOML's
// `dataset.path` or LIVE_EVALS_DATASET, validated once in the main process). A suite that names its own dataset
// (relative to its spec file) or writes its scenarios inline is only known here, at collection in the worker:
// it is validated by the same contract, selected for the phase and split for the shard the same way.
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
}

export async function suiteScenarios(
  source: SuiteScenarioSource,
  plan: Pick<
    RunPlan,
    'phase' | 'scenarios' | 'dataset' | 'projectRoot' | 'datasetProblem' | 'shard' | 'settings'
  >,
  specFile: string,
): Promise<SuiteScenarios> {
  if (source.dataset !== undefined && source.scenarios !== undefined) {
    throw new Error(`${specFile}: scenarioSuite takes a dataset or inline scenarios, not both`)
  }
  if (source.dataset === undefined && source.scenarios === undefined) {
    if (plan.datasetProblem !== null) throw new Error(`${specFile}: ${plan.datasetProblem}`)
    return { scenarios: plan.scenarios, source: projectRelativePath(plan.projectRoot, plan.dataset) }
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
  }
}
