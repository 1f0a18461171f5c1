// What part of its project a run ran, for its results.json (`selection`, src/reporting/extensions/selection.ts).
// A `-t` filter or a spec-file filter makes a run of fewer scenarios that otherwise looks complete; this names the
// filter and counts the scenarios it kept. Shards are left alone: each runs a part by design, and the merged
// results are the whole run.
import { relative } from 'node:path'
import type { TestModule, Vitest } from 'vitest/node'
import type { RunSelection } from '../src/reporting/extensions/selection.ts'
import type { PlannedRun, RunPlan } from '../src/vitest/run-plan-schema.ts'
import type { FinishedScenarioTest } from './run-results.ts'

/** How Vitest was told to pick tests in this process. */
export interface TestFilters {
  testNamePattern: string | null
  tags: string[]
}

export function testFiltersOf(vitest: Vitest | null): TestFilters {
  const config = vitest?.config
  return {
    testNamePattern: config?.testNamePattern?.source ?? null,
    tags: [...(config?.tagsFilter ?? [])],
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
  for (const project of vitest.projects) {
    const run = project.getProvidedContext().liveEvalsRun
    if (run?.state !== 'planned' || run.plan.runs[0]?.directory !== plan.runs[0]?.directory) continue
    const ran = new Set(
      modules.filter((module) => module.project.name === project.name).map((module) => module.moduleId),
    )
    const { testFiles } = await project.globTestFiles()
    for (const file of testFiles) if (!ran.has(file)) left.add(relative(plan.projectRoot, file))
  }
  return [...left].sort()
}

/** The run's selection, or undefined when nothing was filtered out (a full run carries no `selection`). */
export function selectionOf(
  plan: Pick<RunPlan, 'scenarioIds'>,
  run: PlannedRun,
  tests: readonly FinishedScenarioTest[],
  filters: TestFilters,
  leftOut: readonly string[],
): RunSelection | undefined {
  if (filters.testNamePattern === null && filters.tags.length === 0 && leftOut.length === 0) return undefined
  const own = tests.filter((test) => test.meta?.runDirectory === run.directory)
  const ran = own.filter((test) => test.state === 'passed' || test.state === 'failed')
  const offered = new Set([...plan.scenarioIds, ...own.map((test) => test.meta?.scenarioId as string)])
  return {
    selected_scenarios: new Set(ran.map((test) => test.meta?.scenarioId)).size,
    offered_scenarios: offered.size,
    test_name_filter: filters.testNamePattern,
    tags_filter: filters.tags,
    spec_files_left_out: [...leftOut],
  }
}
