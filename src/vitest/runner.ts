// The runner of live-evals projects: Vitest's own runner plus these duties.
// - It stamps each test file with the run's stamp (the plan without settings or scenarios), so reporters can
//   write results.json even from merged blob reports.
// - In a watch-mode rerun that could not be planned (src/vitest/global-setup.ts), it fails each test file with
//   the problem before the file is imported: the file shows the problem, and nothing of it runs.
// - Before each attempt of a scenario test it clears what the previous attempt recorded: meta survives retries,
//   and a retried test must report only its final attempt's grades and row.
// - It is the worker's exit for text: before a test's result is reported to the main process (which prints its
//   errors and writes its row), the errors and the row are scrubbed of the run's credentials and anything
//   key-shaped (src/config/outbound-redaction.ts), however the text got there.
// The dataset was validated and the settings resolved once, in the main process (the global setup's plan);
// nothing here reads them again. This module must not import the fixtures at load time: test.extend needs a
// running suite collector.
import { type RunnerTask, type RunnerTestCase, type RunnerTestFile, TestRunner } from 'vitest'
import { redactOutbound, rememberSecretValues } from '../config/outbound-redaction.ts'
import { credentialValues } from '../config/redact.ts'
import { resetAttemptMeta } from './meta.ts'
import { runStampOf } from './plugin/run-stamp.ts'
import type { LiveEvalsRun } from './provided.ts'

type TryOptions = Parameters<TestRunner['onBeforeTryTask']>[1]
type ImportSource = Parameters<TestRunner['importFile']>[1]

export default class LiveEvalsRunner extends TestRunner {
  override onCollectStart(file: RunnerTestFile): void {
    super.onCollectStart(file)
    const run = this.#run()
    if (run?.state !== 'planned') return
    rememberSecretValues(credentialValues(run.plan.settings))
    file.meta.liveEvalsRunStamp = runStampOf(run.plan)
  }

  // Where Vitest's collection loads the file: an error thrown here is the file's failure, and none of the file's
  // code (nor what it imports, such as the fixtures that read the withdrawn plan) has run.
  override importFile(filepath: string, source: ImportSource): unknown {
    const run = this.#run()
    if (source === 'collect' && run?.state === 'not_started') throw unplannedRunError(run.problem)
    return super.importFile(filepath, source)
  }

  /** The current run the global setup provided; absent in a project without it. */
  #run(): LiveEvalsRun | undefined {
    return this.injectValue('liveEvalsRun') as LiveEvalsRun | undefined
  }

  override onBeforeTryTask(test: RunnerTask, options: TryOptions): void {
    super.onBeforeTryTask(test, options)
    const meta = test.meta.liveEvals
    if (meta !== undefined) resetAttemptMeta(meta, options.retry)
  }

  // Called before a retried attempt's result is reported.
  override async onAfterRetryTask(test: RunnerTestCase, options: TryOptions): Promise<void> {
    await super.onAfterRetryTask(test, options)
    redactReported(test)
  }

  // Called before the test's final result is reported.
  override onAfterRunTask(test: RunnerTask): void {
    super.onAfterRunTask(test)
    redactReported(test)
  }
}

function redactReported(task: RunnerTask): void {
  const result = task.result
  if (result?.errors !== undefined) result.errors = redactOutbound(result.errors)
  if (result?.attempts !== undefined) result.attempts = redactOutbound(result.attempts)
  const meta = task.meta.liveEvals
  if (meta !== undefined) {
    meta.row = redactOutbound(meta.row)
    meta.grades = redactOutbound(meta.grades)
    // The reporter puts it on the rows made without the execution's recording (reporters/run-results.ts).
    if (meta.recording !== undefined) meta.recording = redactOutbound(meta.recording)
  }
}

/** The problem as the file's error: its text says what to fix, so no stack into the runner goes with it. */
function unplannedRunError(problem: string): Error {
  const error = new Error(problem.trimEnd())
  error.stack = `${error.name}: ${error.message}`
  return error
}
