// A scenario that two spec files evaluate into one run runs once: the first test to claim it runs it, the other
// fails with no row (src/vitest/scenario-claim.ts). Which spec file wins is the workers' timing, so the run's rows
// are not what either spec file asked for (two assistants would give a mix nobody chose): the run is marked
// incomplete (`completion`, built by runCompletion in src/reporting/extensions/completion.ts) with each refused
// scenario and both spec files, and the console says so, as it does for a spec file that failed to load.

import type { DuplicateScenario } from '../src/reporting/extensions/completion.ts'
import { projectRelativePath } from '../src/reporting/project-path.ts'
import { DEFAULT_TRIAL } from '../src/reporting/row-key.ts'
import type { PlannedRun } from '../src/vitest/run-plan-schema.ts'
import { type FinishedScenarioTest, specFileName } from './run-results.ts'

/** The refused duplicates of `run`, spec files relative to `projectRoot`, sorted by scenario and trial. */
export function duplicateScenariosOf(
  run: Pick<PlannedRun, 'directory'>,
  tests: readonly FinishedScenarioTest[],
  projectRoot: string,
): DuplicateScenario[] {
  return tests
    .flatMap((test) => {
      const meta = test.meta
      if (meta?.runDirectory !== run.directory || meta.duplicateOf === undefined) return []
      const { firstSpecFile, specFile } = meta.duplicateOf
      return [
        {
          scenario_id: meta.scenarioId,
          trial: test.trial ?? DEFAULT_TRIAL,
          ran_in: specFileName(firstSpecFile, projectRoot),
          refused_in: projectRelativePath(projectRoot, specFile),
        },
      ]
    })
    .sort((a, b) => a.scenario_id.localeCompare(b.scenario_id) || a.trial - b.trial)
}

/** The tests refused as duplicates, for the closing line. */
export function refusedDuplicateCount(tests: readonly FinishedScenarioTest[]): number {
  return tests.filter((test) => test.meta?.duplicateOf !== undefined).length
}
