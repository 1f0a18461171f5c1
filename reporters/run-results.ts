// From finished Vitest tests to results.json documents: one document per planned run (one per architecture), rows
// in dataset order, validated against schema 2.0. A test that never produced its row (a fixture crashed, the test
// timed out) still gets one: an infrastructure_error naming what Vitest reported, with unknown metrics null.

import type { DuplicateScenario } from '../src/reporting/extensions/completion.ts'
import { EXTENSION_KEY } from '../src/reporting/extensions/registry.ts'
import { projectRelativePath } from '../src/reporting/project-path.ts'
import { infrastructureErrorRow } from '../src/reporting/result-item.ts'
import type { ResultItem, ResultsDocument } from '../src/reporting/result-schema.ts'
import { buildResultsDocument, withRunExtensions } from '../src/reporting/results-document.ts'
import { withAssistant } from '../src/reporting/row-assistant.ts'
import { firstOfEachRowKey, type RepeatedRowKey, rowKeyOf, withTrial } from '../src/reporting/row-key.ts'
import type { LiveEvalsTaskMeta } from '../src/vitest/meta.ts'
import { consoleLabel } from '../src/vitest/plugin/console-label.ts'
import type { PlannedRun, RunPlan } from '../src/vitest/run-plan-schema.ts'
import { runExtensionLines } from './run-extension-lines.ts'

/** What of a run's plan the results need: its phase and its scenarios' order (a RunStamp carries both). */
type PlanFacts = Pick<RunPlan, 'phase' | 'scenarioIds'>

export interface FinishedScenarioTest {
  name: string
  /** The spec file (absolute) whose test this is; absent in the fallback views that have none. */
  specFile?: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  meta: LiveEvalsTaskMeta | undefined
  /** Messages of the errors Vitest recorded for the test. */
  errors: string[]
  /** The note of a test skipped with a reason (`ctx.skip(note)`); absent otherwise. */
  skipNote?: string
  /** The test's trial in a trials run (its meta's liveEvalsTrial); absent without trials. */
  trial?: number
}

/**
 * The rows of one run: every test of it that ran (skipped and filtered-out tests have no row). A (scenario id,
 * trial) that two tests gave a row keeps the first; each later one is left out, named through `log` and given to
 * `onDuplicate` as a refused duplicate, so the run is marked incomplete as when the claim refused it (the claim in
 * src/vitest/scenario-claim.ts stops such a test before it runs; this is the last line of defence, for a test body
 * that never took the claim).
 */
export function rowsOfRun(
  run: PlannedRun,
  tests: readonly FinishedScenarioTest[],
  {
    projectRoot,
    onDuplicate = () => {},
    log = () => {},
  }: {
    /** Spec files are named relative to it. */
    projectRoot?: string
    onDuplicate?: (duplicate: DuplicateScenario) => void
    log?: (line: string) => void
  } = {},
): ResultItem[] {
  const ran = tests.flatMap((test) => {
    const row = test.meta?.runDirectory === run.directory ? rowOfTest(test) : null
    return row === null ? [] : [{ test, row, specFile: specFileName(test.specFile, projectRoot) }]
  })
  const kept = firstRowOfEachKey(
    ran,
    ({ test }) => test.name,
    (duplicate, { key: { scenario_id, trial }, item: { test }, first: { test: first } }) => {
      log(
        `[${consoleLabel(run)}] Scenario "${scenario_id}" trial ${trial} has a second row (test "${test.name}"` +
          ` after "${first.name}"): results.json keeps the first and is marked incomplete; evaluate each scenario` +
          ' from one spec file',
      )
      onDuplicate(duplicate)
    },
  )
  return kept.map(({ row }) => row)
}

/** How results name a test's spec file: relative to the project root when there is one; null when none is known. */
export function specFileName(
  specFile: string | null | undefined,
  projectRoot: string | undefined,
): string | null {
  if (specFile === undefined || specFile === null) return null
  return projectRoot === undefined ? specFile : projectRelativePath(projectRoot, specFile)
}

/**
 * The rows in their order with each (scenario id, trial) once. A later row is left out and handed to `onDuplicate`
 * with the completion marker's record of it: the spec file that ran the kept row, and the one that ran the refused
 * row (else `unnamed` of it). A run's rows and a shard merge both apply this rule, each saying so in its own words.
 */
export function firstRowOfEachKey<Item extends { row: ResultItem; specFile: string | null }>(
  items: readonly Item[],
  unnamed: (item: Item) => string,
  onDuplicate: (duplicate: DuplicateScenario, repeat: RepeatedRowKey<Item>) => void,
): Item[] {
  return firstOfEachRowKey(
    items,
    ({ row }) => rowKeyOf(row),
    (repeat) => {
      const { key, item, first } = repeat
      const refusedIn = item.specFile ?? unnamed(item)
      onDuplicate({ ...key, ran_in: first.specFile, refused_in: refusedIn }, repeat)
    },
  )
}

/**
 * The row a finished test gives its run: the one its verdict sealed, or an infrastructure_error row when it ended
 * without one. Null for a test that did not run (skipped, filtered out, still pending) or is not a scenario test.
 */
export function rowOfTest(test: FinishedScenarioTest): ResultItem | null {
  const meta = test.meta
  // A test stopped because another spec file ran its scenario first: that one's row is the scenario's.
  if (meta === undefined || meta.duplicateOf !== undefined) return null
  if (test.state !== 'passed' && test.state !== 'failed') return null
  // Keyed by (scenario id, trial): the trial the suite gave the test is the row's, whoever built the row; so is
  // the assistant the suite ran it against, and the recording it was to play.
  const row = withTestRecording(sealedOrFallbackRow(test, meta), meta)
  return withAssistant(withTrial(row, test.trial ?? null), meta.assistant ?? null)
}

/**
 * A row made without the execution's recording (its request could not be read, its session failed, the test timed
 * out or failed before the scenario ran) names the one the test was to play (WALK; its meta has it before anything
 * of the scenario runs), so a recording that never ran still counts under its condition. This is the one place a
 * failed row gets it; a row that has its own (the execution's, with what was measured) keeps it.
 */
function withTestRecording(row: ResultItem, meta: LiveEvalsTaskMeta): ResultItem {
  return meta.recording === undefined || row.recording !== undefined
    ? row
    : { ...row, recording: meta.recording }
}

function sealedOrFallbackRow(test: FinishedScenarioTest, meta: LiveEvalsTaskMeta): ResultItem {
  if (meta.row !== null) return meta.row
  return infrastructureErrorRow({
    scenario_id: meta.scenarioId,
    title: test.name,
    stage: 'example_execution',
    message:
      test.errors.join('; ') ||
      'the test ended without a result row (a fixture or the test body failed before the scenario was graded)',
  })
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
 * The reference toolkit's closing lines of a run, each named by the run's console label (its architecture, with
 * the model in a run of several). The denominator is the scenarios this run executed (its
 * rows), not the dataset's selection: a `-t` filter or a skip leaves the others out of the run, not unfinished.
 */
export function consoleSummaryLines(plan: PlanFacts, run: PlannedRun, document: ResultsDocument): string[] {
  const { total, passed, failed, infrastructure_errors: infrastructure } = document.summary
  const label = consoleLabel(run)
  // Rows that failed exactly as their spec declared (expected_failure.met): still failures, and said to be expected.
  const expected = document.results.filter(
    (row) => row.observability?.[EXTENSION_KEY]?.expected_failure?.met === true,
  ).length
  return [
    `[${label}] Completed ${passed + failed}/${total} valid ${UNITS[plan.phase]}; ` +
      `${passed} passed; ${failed} failed${expected === 0 ? '' : ` (${expected} as declared expected failures)`}; ` +
      `${infrastructure} infrastructure failures.`,
    ...runExtensionLines(label, document),
    `Results: ${run.directory}`,
  ]
}
