// From finished Vitest tests to results.json documents: one document per planned run (one per architecture), rows
// in dataset order, validated against schema 2.0. A test that never produced its row (a fixture crashed, the test
// timed out) still gets one: an infrastructure_error naming what Vitest reported, with unknown metrics null.

import { infrastructureErrorRow } from '../src/reporting/result-item.ts'
import type { ResultItem, ResultsDocument } from '../src/reporting/result-schema.ts'
import { buildResultsDocument, withRunExtensions } from '../src/reporting/results-document.ts'
import type { LiveEvalsTaskMeta } from '../src/vitest/meta.ts'
import type { PlannedRun, RunPlan } from '../src/vitest/run-plan.ts'

/** What of a run's plan the results need: its phase and its scenarios' order (a RunStamp carries both). */
type PlanFacts = Pick<RunPlan, 'phase' | 'scenarioIds'>

export interface FinishedScenarioTest {
  name: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  meta: LiveEvalsTaskMeta | undefined
  /** Messages of the errors Vitest recorded for the test. */
  errors: string[]
}

/** The rows of one run: every test of it that ran (skipped and filtered-out tests have no row). */
export function rowsOfRun(run: PlannedRun, tests: readonly FinishedScenarioTest[]): ResultItem[] {
  const rows: ResultItem[] = []
  for (const test of tests) {
    const meta = test.meta
    if (meta === undefined || meta.runDirectory !== run.directory) continue
    if (test.state !== 'passed' && test.state !== 'failed') continue
    if (meta.row !== null) {
      rows.push(meta.row)
      continue
    }
    rows.push(
      infrastructureErrorRow({
        scenario_id: meta.scenarioId,
        title: test.name,
        stage: 'example_execution',
        message:
          test.errors.join('; ') ||
          'the test ended without a result row (a fixture or the test body failed before the scenario was graded)',
      }),
    )
  }
  return rows
}

/**
 * The run's metadata as its tests make it: when spec files named their own scenarios, `dataset` names their only
 * source (or the first), and `configuration.live_evals.datasets` lists every source.
 */
export function runMetadataOf(
  run: PlannedRun,
  tests: readonly FinishedScenarioTest[],
): PlannedRun['metadata'] {
  const sources = [
    ...new Set(
      tests.flatMap((test) =>
        test.meta?.runDirectory === run.directory && test.meta.source !== null ? [test.meta.source] : [],
      ),
    ),
  ]
  const first = sources[0]
  if (first === undefined || (sources.length === 1 && first === run.metadata.dataset)) return run.metadata
  return withRunExtensions({ ...run.metadata, dataset: first }, { datasets: sources })
}

export function resultsDocumentOf(
  plan: PlanFacts,
  run: PlannedRun,
  rows: readonly ResultItem[],
  metadata: PlannedRun['metadata'] = run.metadata,
): ResultsDocument {
  return buildResultsDocument(metadata, rows, plan.scenarioIds)
}

const UNITS = { crawl: 'examples', walk: 'recordings', run: 'conversations' } as const

/**
 * The reference toolkit's closing lines of a run. The denominator is the scenarios this run executed (its
 * rows), not the dataset's selection: a `-t` filter or a skip leaves the others out of the run, not unfinished.
 */
export function consoleSummaryLines(plan: PlanFacts, run: PlannedRun, document: ResultsDocument): string[] {
  const { total, passed, failed, infrastructure_errors: infrastructure } = document.summary
  return [
    `[${run.architecture}] Completed ${passed + failed}/${total} valid ${UNITS[plan.phase]}; ` +
      `${passed} passed; ${failed} failed; ${infrastructure} infrastructure failures.`,
    `Results: ${run.directory}`,
  ]
}
