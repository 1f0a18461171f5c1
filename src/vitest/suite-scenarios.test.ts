// A suite with scenarios of its own (inline or its own dataset file) does not run LIVE_EVALS_DATASET's dataset; when
// that variable is set for the run, the suite says so in one line naming the variable, the dataset, the spec file
// and why. A suite that runs the run's dataset, and a dataset.path that only the TOML set, say nothing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadPhaseConfig } from '../config/load.ts'
import type { ScenarioDefinition } from '../define/scenario.ts'
import { datasetText, singleTurnRaw } from '../scenarios/fixtures/builders.ts'
import type { RunPlan } from './run-plan-schema.ts'
import { suiteScenarios } from './suite-scenarios.ts'

let project = ''
beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'live-evals-suite-scenarios-'))
  await writeFile(join(project, 'crawl.toml'), '[dataset]\npath = "default.json"\n')
  for (const name of ['default.json', 'other.json', 'own.json']) {
    await writeFile(join(project, name), datasetText([singleTurnRaw(name.replace('.json', ''))]))
  }
})
afterAll(async () => {
  await rm(project, { recursive: true, force: true })
})

/** The plan a crawl run of this project gets, with `env` as the run's environment. */
function planWith(env: Record<string, string>) {
  const settings = loadPhaseConfig('crawl', join(project, 'crawl.toml'), {
    env: { LIVE_EVALS_ENV_FILE: join(project, 'none.env'), ...env },
    cwd: project,
  })
  return {
    phase: 'crawl',
    scenarios: [],
    dataset: settings.dataset.path,
    projectRoot: project,
    datasetProblem: null,
    shard: null,
    settings,
  } satisfies Pick<
    RunPlan,
    'phase' | 'scenarios' | 'dataset' | 'projectRoot' | 'datasetProblem' | 'shard' | 'settings'
  >
}

const inline = [singleTurnRaw('written_here') as unknown as ScenarioDefinition]
const specFile = () => join(project, 'specs', 'mine.spec.ts')

describe('LIVE_EVALS_DATASET beside a suite with scenarios of its own', () => {
  test('inline scenarios: one line names the variable, its dataset, the spec file and why', async () => {
    const suite = await suiteScenarios(
      { scenarios: inline },
      planWith({ LIVE_EVALS_DATASET: 'other.json' }),
      specFile(),
    )
    expect(suite.scenarios.map((scenario) => scenario.id)).toEqual(['written_here'])
    expect(suite.unusedDataset).toBe(
      'live-evals: LIVE_EVALS_DATASET (other.json) is not used by specs/mine.spec.ts: its scenarioSuite() writes ' +
        'its scenarios inline; LIVE_EVALS_DATASET replaces only the dataset of a suite that names neither a ' +
        'dataset nor scenarios',
    )
  })

  test('its own dataset file: the line names that file instead', async () => {
    const suite = await suiteScenarios(
      { dataset: '../own.json' },
      planWith({ LIVE_EVALS_DATASET: 'other.json' }),
      specFile(),
    )
    expect(suite.unusedDataset).toContain(
      'is not used by specs/mine.spec.ts: its scenarioSuite() names its own dataset own.json;',
    )
  })

  test('nothing to say when the suite runs the run dataset, or only the TOML named a dataset', async () => {
    const runs = await suiteScenarios({}, planWith({ LIVE_EVALS_DATASET: 'other.json' }), specFile())
    expect(runs.unusedDataset).toBeNull()
    const tomlOnly = await suiteScenarios({ scenarios: inline }, planWith({}), specFile())
    expect(tomlOnly.unusedDataset).toBeNull()
  })
})
