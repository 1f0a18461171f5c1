// A planned run for tests of what reads one (the reporter's results and journals, the shard merger): an offline
// CRAWL run of one architecture, its folder named like a real one, optionally one model of a matrix.
import { join } from 'node:path'
import type { PlannedRun } from './run-plan-schema.ts'

export interface PlannedRunChoices {
  architecture?: PlannedRun['architecture']
  /** The folder the run directory is in (default /results). */
  root?: string
  name?: string
  resultsFile?: string
  /** The model of a run of several (the run then names it in its folder and console lines). */
  matrixModel?: string
}

export function plannedRunFixture(choices: PlannedRunChoices = {}): PlannedRun {
  const architecture = choices.architecture ?? 'responses'
  const model = choices.matrixModel
  const name =
    choices.name ??
    `crawl_offline_${model === undefined ? '' : `${model}_`}${architecture}_20260818_000000_000Z`
  const directory = join(choices.root ?? '/results', name)
  return {
    ...(model === undefined ? {} : { model, multiModel: true }),
    architecture,
    directory,
    name,
    resultsFile: choices.resultsFile ?? join(directory, 'results.json'),
    claim: null,
    metadata: {
      id: name,
      module: 'crawl',
      execution_mode: 'offline_fixture',
      interaction: 'single_turn',
      dataset: '/data/crawl.json',
      configuration: { ...(model === undefined ? {} : { model }), assistant_mode: architecture },
    },
  }
}
