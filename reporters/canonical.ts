// The canonical live-evals reporter. At the end of a run it writes one results.json (schema 2.0) per planned
// run (one per architecture; a shard writes results.shard-<i>-of-<n>.json), prints the reference toolkit's
// summary and results path per run, writes each run's HTML report and JUnit file (junit.xml, each scenario's
// metrics as properties), and ends with the plain line
// `N passed, N failed` that CI reads. It works beside any other reporter (default, junit, json, blob): it only
// reads test results and meta.
// Nothing is lost on the way: each finished test's row goes to its run's rows journal as the test finishes
// (run-journals.ts), and SIGINT/SIGTERM, which end `vitest run` before any end-of-run hook, write the results of
// what finished from those journals. Ctrl-C on a terminal ends the run as `interrupted`: the same results.
// On `--merge-reports` it writes nothing for unsharded runs (each wrote its own results.json), and for sharded
// runs it writes the merged results.json of each architecture, built from the rows the blobs carry.

import { dirname } from 'node:path'
import type {
  Reporter,
  SerializedError,
  TestCase,
  TestModule,
  TestProject,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node'
import { makePrivateDirectories, writeArtifact, writeJsonArtifact } from '../src/artifacts/index.ts'
import { redactText } from '../src/config/outbound-redaction.ts'
import { writeRunReport } from '../src/report/write-report.ts'
import { type DuplicateScenario, runCompletion } from '../src/reporting/extensions/completion.ts'
import { junitXmlOf } from '../src/reporting/junit-xml.ts'
import type { ResultsDocument } from '../src/reporting/result-schema.ts'
import { withRunExtensions } from '../src/reporting/results-document.ts'
import { consoleLabel } from '../src/vitest/plugin/console-label.ts'
import { mergeShardedRuns, type ShardModule } from '../src/vitest/plugin/merged-results.ts'
import { RESULTS_FILE } from '../src/vitest/plugin/run-directories.ts'
import { RunStampSchema } from '../src/vitest/plugin/run-stamp.ts'
import type { RunPlan } from '../src/vitest/run-plan-schema.ts'
import '../src/vitest/plugin/trial-meta.ts'
import { duplicateScenariosOf } from './duplicate-scenarios.ts'
import { runExtensionLines } from './run-extension-lines.ts'
import { interruptedRunLine, RunJournals } from './run-journals.ts'
import {
  consoleSummaryLines,
  type FinishedScenarioTest,
  resultsDocumentOf,
  rowsOfRun,
  runMetadataOf,
} from './run-results.ts'
import { writeRunResultsFile } from './run-results-file.ts'
import {
  offeredScenarios,
  selectionOf,
  specFilesFailed,
  specFilesLeftOut,
  testFiltersOf,
} from './run-selection.ts'
import { skippedScenariosLine } from './skip-notes.ts'
import { runSummaryLine } from './summary-line.ts'

function finished(testCase: TestCase): FinishedScenarioTest {
  const result = testCase.result()
  const meta = testCase.meta()
  return {
    name: testCase.name,
    specFile: testCase.module.moduleId,
    state: result.state,
    meta: meta.liveEvals,
    errors: (result.errors ?? []).map((error) => error.message),
    ...(result.state === 'skipped' && result.note !== undefined ? { skipNote: result.note } : {}),
    ...(meta.liveEvalsTrial === undefined ? {} : { trial: meta.liveEvalsTrial.trial }),
  }
}

/**
 * The projects of the run under way, by name (all of them before a run started). A watch rerun of some projects'
 * spec files leaves the others' runs as they were (src/vitest/global-setup.ts): their plans and problems are their
 * last runs', not part of this one.
 */
type RunProjects = ReadonlySet<string> | null

/** A run Vitest reported the start of: its projects, and its spec files (to match the run's end to it). */
interface StartedRun {
  projects: ReadonlySet<string>
  files: ReadonlySet<string>
}

function projectsOfRun(vitest: Vitest | null, ofRun: RunProjects): TestProject[] {
  return (vitest?.projects ?? []).filter((project) => ofRun === null || ofRun.has(project.name))
}

/** The plans the global setups of this run's projects provided; one per distinct run. */
function providedPlans(vitest: Vitest | null, ofRun: RunProjects): RunPlan[] {
  const plans = new Map<string, RunPlan>()
  for (const project of projectsOfRun(vitest, ofRun)) {
    const run = project.getProvidedContext().liveEvalsRun
    if (run?.state !== 'planned') continue
    const { plan } = run
    const key = plan.runs.map((run) => `${run.directory}\n${run.resultsFile}`).join('\n')
    if (!plans.has(key)) plans.set(key, plan)
  }
  return [...plans.values()]
}

/** The phases whose run could not start: their projects' global setups provided a problem instead of a plan. */
function notStartedPhases(vitest: Vitest | null, ofRun: RunProjects): string[] {
  return projectsOfRun(vitest, ofRun).flatMap((project) => {
    const { liveEvalsRun: run, liveEvalsProject: options } = project.getProvidedContext()
    return run?.state === 'not_started' && options !== undefined ? [options.phase] : []
  })
}

/** The test files of sharded runs, with the stamp the runner put on each. */
function shardModules(modules: readonly TestModule[]): ShardModule[] {
  const found: ShardModule[] = []
  for (const module of modules) {
    const parsed = RunStampSchema.safeParse(module.meta().liveEvalsRunStamp)
    if (!parsed.success || parsed.data.shard === null) continue
    found.push({ stamp: parsed.data, tests: [...module.children.allTests()].map(finished) })
  }
  return found
}

export default class CanonicalReporter implements Reporter {
  #vitest: Vitest | null = null
  /**
   * The projects of each run Vitest started and has not ended, oldest first. Vitest reports a run's start before it
   * waits for the run under way (cli-api `runFiles`), so two UI reruns queued behind one run both start before
   * the first of them runs; runs end in the order they started, so the oldest is the one running or ending.
   */
  readonly #started: StartedRun[] = []
  readonly #journals = new RunJournals(
    () => providedPlans(this.#vitest, this.#ofRun),
    (line) => this.#log(line),
  )

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#started.push({
      projects: new Set(specifications.map((specification) => specification.project.name)),
      files: new Set(specifications.map((specification) => specification.moduleId)),
    })
  }

  /** The projects of the run under way (or ending); null, every project, before any start (a merge). */
  get #ofRun(): RunProjects {
    return this.#started[0]?.projects ?? null
  }

  #log(text: string): void {
    const line = redactText(text)
    if (this.#vitest) this.#vitest.logger.log(line)
    else console.log(line)
  }

  /** A merged report replays the shards' tests: their rows were journaled by the shards themselves. */
  get #journaling(): boolean {
    return !this.#vitest?.config.mergeReports
  }

  async onTestModuleStart(): Promise<void> {
    if (this.#journaling) await this.#journals.open()
  }

  // Before the file's tests run: the scenarios it registered become part of what its runs planned.
  async onTestModuleCollected(module: TestModule): Promise<void> {
    if (!this.#journaling) return
    await this.#journals.plan(
      [...module.children.allTests()].flatMap((test) => {
        const meta = test.meta().liveEvals
        return meta === undefined ? [] : [{ runDirectory: meta.runDirectory, scenarioId: meta.scenarioId }]
      }),
    )
  }

  // Called once per test, after its last attempt: the row its verdict sealed is final by then.
  async onTestCaseResult(testCase: TestCase): Promise<void> {
    if (this.#journaling) await this.#journals.record(testCase.id, finished(testCase))
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    _errors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    // A start whose run never came to its end (Vitest reports the start before anything can fail) is dropped
    // here, at the end of a run it did not start: the ending run's files are the oldest start's that holds them.
    const ended = modules.map((module) => module.moduleId)
    const own = this.#started.findIndex((run) => ended.every((file) => run.files.has(file)))
    this.#started.splice(0, Math.max(own, 0))
    try {
      await this.#closeRun(modules, reason)
    } finally {
      this.#started.shift()
    }
  }

  async #closeRun(modules: ReadonlyArray<TestModule>, reason: TestRunEndReason): Promise<void> {
    const log = (line: string) => this.#log(line)
    const tests = modules.flatMap((module) => [...module.children.allTests()]).map(finished)
    if (this.#vitest?.config.mergeReports) await this.#writeMerged(modules, log)
    else if (reason === 'interrupted') await this.#writeInterrupted(log)
    else {
      await this.#writeRuns(tests, modules, reason, log)
      this.#journals.finish(reason)
    }
    const failedSpecFiles = new Set(
      providedPlans(this.#vitest, this.#ofRun).flatMap((plan) =>
        specFilesFailed(this.#vitest, plan, modules).map((failed) => failed.file),
      ),
    )
    log(runSummaryLine(tests, notStartedPhases(this.#vitest, this.#ofRun), [...failedSpecFiles]))
    const skipped = skippedScenariosLine(
      modules.flatMap((module) =>
        [...module.children.allTests()].flatMap((test) => {
          const result = test.result()
          const noted = result.state === 'skipped' && result.note !== undefined
          return noted && test.meta().liveEvals !== undefined ? [result.note as string] : []
        }),
      ),
    )
    if (skipped !== null) log(skipped)
  }

  /** Ctrl-C on a terminal: Vitest cancelled the run; what finished is in the journals. */
  async #writeInterrupted(log: (line: string) => void): Promise<void> {
    await this.#journals.open()
    for (const run of this.#journals.interrupt()) {
      const line = interruptedRunLine(run)
      if (line !== null) log(line)
      if (run.resultsFile?.endsWith(`/${RESULTS_FILE}`)) {
        await reportRun(run.directory, log)
      }
    }
  }

  /**
   * Per run: results.json first (the authority), then the journal's end line, then what reads the finished run
   * (JUnit, the HTML report, which would otherwise call a finished run partial). A kill before results.json is
   * written leaves a journal without its end line, which the next run names for `live-evals results`.
   */
  async #writeRuns(
    tests: readonly FinishedScenarioTest[],
    modules: readonly TestModule[],
    reason: 'passed' | 'failed',
    log: (line: string) => void,
  ): Promise<void> {
    const filters = testFiltersOf(this.#vitest)
    for (const plan of providedPlans(this.#vitest, this.#ofRun)) {
      const leftOut = await specFilesLeftOut(this.#vitest, plan, modules)
      const failedSpecFiles = specFilesFailed(this.#vitest, plan, modules)
      for (const run of plan.runs) {
        const secondRows: DuplicateScenario[] = []
        const rows = rowsOfRun(run, tests, {
          projectRoot: plan.projectRoot,
          onDuplicate: (duplicate) => secondRows.push(duplicate),
          log,
        })
        if (rows.length === 0) {
          log(
            `[${consoleLabel(run)}] No scenario ran; nothing was written (its unused run folder is removed)`,
          )
          continue
        }
        const selection = selectionOf(plan, run, tests, filters, leftOut)
        const offered = offeredScenarios(plan, run, tests, leftOut.length > 0 || failedSpecFiles.length > 0)
        const completion = runCompletion({
          failedSpecFiles,
          duplicates: [...duplicateScenariosOf(run, tests, plan.projectRoot), ...secondRows],
          finishedRows: rows.length,
          plannedScenarios: offered,
          trialsPerScenario: plan.settings.execution.trials,
        })
        const metadata = withRunExtensions(runMetadataOf(run, tests), { selection, completion })
        const document = resultsDocumentOf(plan, run, rows, metadata)
        const written = await writeRunResultsFile(run.directory, run.resultsFile, document, log)
        this.#journals.finishRun(run.directory, reason)
        log('')
        for (const line of consoleSummaryLines(plan, run, document)) log(line)
        // A shard's results are one part of a run: its report and JUnit file come from the merged results.json.
        // The report reads results.json itself, so it is not made from a name that was refused.
        if (run.resultsFile === RESULTS_FILE && written === RESULTS_FILE) {
          await writeJunit(run.directory, document, log)
          await reportRun(run.directory, log)
        }
      }
    }
  }

  async #writeMerged(modules: readonly TestModule[], log: (line: string) => void): Promise<void> {
    const shards = shardModules(modules)
    if (shards.length < modules.length) {
      log('(merged report: results.json was written by the original run, not rewritten)')
    }
    const resultsDirs = new Map(
      (this.#vitest?.projects ?? []).flatMap((project) => {
        const options = project.getProvidedContext().liveEvalsProject
        return options === undefined ? [] : [[options.phase, options.resultsDir] as const]
      }),
    )
    const { merged, problems } = mergeShardedRuns(shards, (phase) => resultsDirs.get(phase) ?? null, {
      projectRoot: this.#vitest?.config.root,
    })
    for (const problem of problems) log(problem)
    for (const run of merged) {
      await makePrivateDirectories(dirname(run.file))
      await writeJsonArtifact(dirname(run.file), RESULTS_FILE, run.document)
      const { total, passed, failed, infrastructure_errors: infrastructure } = run.document.summary
      log('')
      log(
        `[${run.label}] Merged ${run.shardCount} shards of run "${run.runName}": ${total} scenarios; ` +
          `${passed} passed; ${failed} failed; ${infrastructure} infrastructure failures.`,
      )
      // What the unsharded run prints under its summary (incomplete, filtered, robustness): one verdict either way.
      for (const line of runExtensionLines(run.label, run.document)) log(line)
      log(`Results: ${run.file}`)
      await writeJunit(dirname(run.file), run.document, log)
      await reportRun(dirname(run.file), log)
    }
  }
}

/** The JUnit file beside results.json, each scenario's metrics as properties (src/reporting/junit-xml.ts). */
export const JUNIT_FILE = 'junit.xml'

async function writeJunit(runDirectory: string, document: ResultsDocument, log: (line: string) => void) {
  try {
    await writeArtifact(runDirectory, JUNIT_FILE, junitXmlOf(document))
  } catch (error) {
    log(`(the JUnit file of ${runDirectory} could not be written: ${(error as Error).message})`)
  }
}

/** Writes the run's HTML report and prints its path; a report that cannot be written costs one line, never the run. */
async function reportRun(runDirectory: string, log: (line: string) => void): Promise<void> {
  try {
    log(`Report: ${await writeRunReport(runDirectory)}`)
  } catch (error) {
    log(`(the HTML report of ${runDirectory} could not be written: ${(error as Error).message})`)
  }
}
