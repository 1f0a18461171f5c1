// A suite with scenarios of its own (inline or its own dataset file) does not run LIVE_EVALS_DATASET's dataset; when
// that variable is set for the run, the suite says so in one line naming the variable, the dataset, the spec file
// and why. A suite that runs the run's dataset, a suite whose own dataset is that very file, and a dataset.path that
// only the TOML set, say nothing. scenarioSuite prints the line once per suite, at collection.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { loadPhaseConfig } from '../config/load.ts'
import type { ScenarioDefinition } from '../define/scenario.ts'
import { datasetText, singleTurnRaw } from '../scenarios/fixtures/builders.ts'
import { plannedRunFixture } from './planned-run.test-helpers.ts'
import type { LiveEvalsProjectOptions } from './provided.ts'
import type { RunPlan } from './run-plan-schema.ts'
import { scenarioSuite } from './suite.ts'
import { suiteScenarios } from './suite-scenarios.ts'

// scenarioSuite reads its project and run plan from what the plugin and the global setup provide; here, this file's.
const provided = vi.hoisted(() => ({ plan: null as unknown, project: null as unknown }))
vi.mock('./provided.ts', () => ({
  projectOptionsOf: () => provided.project,
  runPlanOf: () => provided.plan,
}))

// Made at collection, where scenarioSuite runs.
const project = await mkdtemp(join(tmpdir(), 'live-evals-suite-scenarios-'))
await writeFile(join(project, 'crawl.toml'), '[dataset]\npath = "default.json"\n')
for (const name of ['default.json', 'other.json', 'own.json']) {
  await writeFile(join(project, name), datasetText([singleTurnRaw(name.replace('.json', ''))]))
}
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
    configFile: join(project, 'crawl.toml'),
    mode: 'offline',
    runName: null,
    scenarioIds: [],
    runs: [plannedRunFixture()],
    projectRoot: project,
    datasetProblem: null,
    shard: null,
    settings,
  } satisfies RunPlan
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

describe('the line, as a suite says it', () => {
  test("names the dataset the plan loaded, not the settings' path resolved again in this worker", async () => {
    // The worker's folder (this repository) is not the project the variable's relative path was given in.
    const plan = planWith({ LIVE_EVALS_DATASET: 'other.json' })
    const suite = await suiteScenarios(
      { scenarios: inline },
      { ...plan, settings: { ...plan.settings, dataset: { ...plan.settings.dataset, path: 'other.json' } } },
      specFile(),
    )
    expect(suite.unusedDataset).toMatch(/^live-evals: LIVE_EVALS_DATASET \(other\.json\) is not used by /)
  })

  test('a suite whose own dataset is the file the variable names runs it: nothing to say', async () => {
    const suite = await suiteScenarios(
      { dataset: '../other.json' },
      planWith({ LIVE_EVALS_DATASET: 'other.json' }),
      specFile(),
    )
    expect(suite.scenarios.map((scenario) => scenario.id)).toEqual(['other'])
    expect(suite.unusedDataset).toBeNull()
  })
})

// Three suites, collected here at the top level as a spec file calls scenarioSuite: each with scenarios of its own
// prints its line once, and the one that runs the run's dataset prints none.
const warned: unknown[][] = []
const warn = vi.spyOn(console, 'warn').mockImplementation((...line) => void warned.push(line))
try {
  provided.project = {
    phase: 'crawl',
    configFile: null,
    declaredTags: [],
    resultsDir: null,
  } satisfies Omit<LiveEvalsProjectOptions, 'startup'>
  // With no run planned, the suites register no test here (an empty describe fails its file).
  provided.plan = { ...planWith({ LIVE_EVALS_DATASET: 'other.json' }), runs: [] }
  await scenarioSuite({ scenarios: inline })
  await scenarioSuite({ dataset: join(project, 'own.json') })
  await scenarioSuite({})
} finally {
  warn.mockRestore()
}

test('scenarioSuite prints the line once per suite with scenarios of its own', () => {
  expect(warned).toEqual([
    [expect.stringContaining('its scenarioSuite() writes its scenarios inline;')],
    [expect.stringContaining('its scenarioSuite() names its own dataset own.json;')],
  ])
})
