// The canonical live-evals reporter. At the end of a run it writes one results.json (schema 2.0) into each
// planned run directory, prints the reference toolkit's summary and results path per run, and ends with the plain
// line `N passed, N failed` that CI reads. It works beside any other reporter (default, junit, json, blob): it only
// reads test results and meta. On `--merge-reports` it reports but does not write: each original run wrote its own
// results.json, and a merged report must not overwrite it.
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { writeJsonArtifact } from '../src/artifacts/index.ts'
import { type RunPlan, RunPlanSchema } from '../src/vitest/run-plan.ts'
import {
  consoleSummaryLines,
  type FinishedScenarioTest,
  resultsDocumentOf,
  rowsOfRun,
} from './run-results.ts'

function finished(testCase: TestCase): FinishedScenarioTest {
  const result = testCase.result()
  return {
    name: testCase.name,
    state: result.state,
    meta: testCase.meta().liveEvals,
    errors: (result.errors ?? []).map((error) => error.message),
  }
}

/** Plans stamped on test files by the runner, else provided by the global setup; one per distinct run. */
function plansOf(vitest: Vitest | null, modules: readonly TestModule[]): RunPlan[] {
  const candidates: unknown[] = modules.map((module) => module.meta().liveEvalsRun)
  for (const project of vitest?.projects ?? []) candidates.push(project.getProvidedContext().liveEvalsRun)
  const plans = new Map<string, RunPlan>()
  for (const candidate of candidates) {
    const parsed = RunPlanSchema.safeParse(candidate)
    if (!parsed.success) continue
    const key = parsed.data.runs.map((run) => run.directory).join('\n')
    if (!plans.has(key)) plans.set(key, parsed.data)
  }
  return [...plans.values()]
}

export default class CanonicalReporter implements Reporter {
  #vitest: Vitest | null = null

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    _errors: ReadonlyArray<SerializedError>,
    _reason: TestRunEndReason,
  ): Promise<void> {
    const log = (line: string) => (this.#vitest ? this.#vitest.logger.log(line) : console.log(line))
    const cases = modules.flatMap((module) => [...module.children.allTests()])
    const tests = cases.map(finished)
    const merged = Boolean(this.#vitest?.config.mergeReports)
    for (const plan of plansOf(this.#vitest, modules)) {
      for (const run of plan.runs) {
        const rows = rowsOfRun(run, tests)
        if (rows.length === 0) {
          log(
            `[${run.architecture}] No scenario ran; nothing was written (its empty run directory is removed)`,
          )
          continue
        }
        const document = resultsDocumentOf(plan, run, rows)
        if (!merged) await writeJsonArtifact(run.directory, 'results.json', document)
        log('')
        for (const line of consoleSummaryLines(plan, run, document)) log(line)
        if (merged) log('(merged report: results.json was written by the original run, not rewritten)')
      }
    }
    const passed = tests.filter((test) => test.state === 'passed').length
    const failed = tests.filter((test) => test.state === 'failed').length
    log(`${passed} passed, ${failed} failed`)
  }
}
