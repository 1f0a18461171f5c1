// What part of its project a run ran, for its results.json. A `-t` filter or a spec-file filter makes a run of
// fewer scenarios that otherwise looks complete (`selection`, src/reporting/extensions/selection.ts): this names
// the filter and counts the scenarios (and, in a trials run, the trials) it kept. Shards are left alone: each runs
// a part by design, and the merged results are the whole run. A spec file that failed before its scenarios ran (a
// dataset path with a typo) leaves the same look (`completion` with `spec_files_failed`,
// src/reporting/extensions/completion.ts): this names it.
import type { TestModule, TestProject, Vitest } from 'vitest/node'
import type { FailedSpecFile } from '../src/reporting/extensions/completion.ts'
import type { RunSelection } from '../src/reporting/extensions/selection.ts'
import { projectRelativePath } from '../src/reporting/project-path.ts'
import { DEFAULT_TRIAL } from '../src/reporting/row-key.ts'
import type { PlannedRun, RunPlan } from '../src/vitest/run-plan-schema.ts'
import type { FinishedScenarioTest } from './run-results.ts'

/** How Vitest was told to pick tests in this process. */
export interface TestFilters {
  testNamePattern: string | null
  tags: string[]
}

export function testFiltersOf(vitest: Vitest | null): TestFilters {
  // The effective pattern: in watch mode the interactive `t` filter lives in Vitest's config override, not config.
  return {
    testNamePattern: vitest?.getGlobalTestNamePattern()?.source ?? null,
    tags: [...(vitest?.config?.tagsFilter ?? [])],
  }
}

/**
 * The spec files of the projects that planned `plan` that did not run (a file filter on the command line), relative
 * to the plan's project root and sorted; empty for a shard, which runs part of the files on purpose.
 */
export async function specFilesLeftOut(
  vitest: Vitest | null,
  plan: RunPlan,
  modules: readonly TestModule[],
): Promise<string[]> {
  if (vitest === null || plan.shard !== null) return []
  const left = new Set<string>()
  for (const project of projectsOf(vitest, plan)) {
    const ran = new Set(
      modules.filter((module) => module.project.name === project.name).map((module) => module.moduleId),
    )
    const { testFiles } = await project.globTestFiles()
    for (const file of testFiles) if (!ran.has(file)) left.add(projectRelativePath(plan.projectRoot, file))
  }
  return [...left].sort()
}

/** The projects whose global setup provided `plan` (a plan's runs own their folders, so the first names it). */
function projectsOf(vitest: Vitest, plan: RunPlan): TestProject[] {
  return vitest.projects.filter((project) => {
    const run = project.getProvidedContext().liveEvalsRun
    return run?.state === 'planned' && run.plan.runs[0]?.directory === plan.runs[0]?.directory
  })
}

/**
 * The spec files of the projects that planned `plan` that failed before any of their tests ran (Vitest recorded
 * errors on the file itself: it could not be loaded or collected), each with its first error's first line.
 */
export function specFilesFailed(
  vitest: Vitest | null,
  plan: RunPlan,
  modules: readonly TestModule[],
): FailedSpecFile[] {
  if (vitest === null) return []
  const projects = new Set(projectsOf(vitest, plan).map((project) => project.name))
  return modules
    .filter((module) => projects.has(module.project.name) && module.errors().length > 0)
    .filter((module) =>
      [...module.children.allTests()].every(
        (test) => test.result().state === 'skipped' || test.result().state === 'pending',
      ),
    )
    .map((module) => ({
      file: projectRelativePath(plan.projectRoot, module.moduleId),
      error: firstLine(module.errors()[0]?.message ?? 'failed before its tests ran'),
    }))
    .sort((a, b) => a.file.localeCompare(b.file))
}

const firstLine = (text: string) => text.split(/\r?\n/, 1)[0]?.trim() ?? ''

/** What of a plan decides the scenarios a run was offered: its dataset (file and scenarios) and its root. */
export type OfferingPlan = Pick<RunPlan, 'scenarioIds' | 'dataset' | 'projectRoot'>

/**
 * The distinct scenarios a run was offered: those of the spec files that were collected, and its dataset's when a
 * collected spec file reads it (its tests' `source` names the dataset file) or one that may read it was not
 * collected (`uncollected`: a spec file a filter left out or that failed to load), or when none was collected. A
 * dataset that only the settings name, beside spec files that all bring their own scenarios, offers nothing:
 * counting it made such a run "filtered" and the gate refused it.
 */
export function offeredScenarios(
  plan: OfferingPlan,
  run: PlannedRun,
  tests: readonly FinishedScenarioTest[],
  uncollected: boolean,
): number {
  const own = tests.filter((test) => test.meta?.runDirectory === run.directory)
  const collected = new Set(own.map((test) => test.meta?.scenarioId as string))
  const dataset = projectRelativePath(plan.projectRoot, plan.dataset)
  const datasetOffered = uncollected || own.length === 0 || own.some((test) => test.meta?.source === dataset)
  return datasetOffered ? new Set([...plan.scenarioIds, ...collected]).size : collected.size
}

/** What of a plan `selectionOf` reads: its scenarios, whether it is an explain re-run, its trials per scenario. */
export type SelectionPlan = OfferingPlan &
  Pick<RunPlan, 'rerunPlan'> & {
    settings: { execution: Pick<RunPlan['settings']['execution'], 'trials'> }
  }

/**
 * The run's selection, or undefined when nothing was left out (a full run carries no `selection`). Decided by what
 * ran, not by which filters were set: `-t client` that matches every scenario of the client run leaves that run
 * whole, while a line filter (`one.spec.ts:42`) or a UI rerun of chosen tests, which set no pattern, leave scenarios
 * out all the same. A scenario skipped with a note (a fault profile the run turned off) was decided, not left out.
 * Counted in (scenario, trial) pairs: a trials run offers each scenario `execution.trials` times, and
 * `-t "trial 1/"` runs every scenario but leaves the other trials out.
 */
export function selectionOf(
  plan: SelectionPlan,
  run: PlannedRun,
  tests: readonly FinishedScenarioTest[],
  filters: TestFilters,
  leftOut: readonly string[],
): RunSelection | undefined {
  // A `live-evals explain` re-run picks its scenario's tests by name on purpose: it is a re-run, never gated.
  if (plan.rerunPlan !== undefined) return undefined
  const own = tests.filter((test) => test.meta?.runDirectory === run.directory)
  const pair = (test: FinishedScenarioTest) =>
    JSON.stringify([test.meta?.scenarioId, test.trial ?? DEFAULT_TRIAL])
  const ranTests = own.filter((test) => test.state === 'passed' || test.state === 'failed')
  const ran = new Set(ranTests.map(pair))
  const decided = new Set([...ran, ...own.filter((test) => test.skipNote !== undefined).map(pair)])
  // Only what a filter left out counts here: a spec file that failed to load is the completion marker's to name
  // (spec_files_failed, whose planned count includes its dataset), not a filter's choice.
  const offered = offeredScenarios(plan, run, tests, leftOut.length > 0)
  const trials = plan.settings.execution.trials
  if (decided.size >= offered * trials && leftOut.length === 0) return undefined
  return {
    selected_scenarios: new Set(ranTests.map((test) => test.meta?.scenarioId)).size,
    offered_scenarios: offered,
    ...(trials === 1 ? {} : { selected_trials: ran.size, offered_trials: offered * trials }),
    test_name_filter: filters.testNamePattern,
    tags_filter: filters.tags,
    spec_files_left_out: [...leftOut],
  }
}
