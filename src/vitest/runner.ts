// The runner of live-evals projects: Vitest's own runner plus two duties.
// - It stamps each test file with the run's stamp (the plan without settings or scenarios), so reporters can
//   write results.json even from merged blob reports.
// - Before each attempt of a scenario test it clears what the previous attempt recorded: meta survives retries,
//   and a retried test must report only its final attempt's grades and row.
// The dataset was validated and the settings resolved once, in the main process (the global setup's plan);
// nothing here reads them again. This module must not import the fixtures at load time: test.extend needs a
// running suite collector.
import { type RunnerTask, type RunnerTestFile, TestRunner } from 'vitest'
import { resetAttemptMeta } from './meta.ts'
import { runStampOf } from './plugin/run-stamp.ts'
import type { RunPlan } from './run-plan.ts'

type TryOptions = Parameters<TestRunner['onBeforeTryTask']>[1]

export default class LiveEvalsRunner extends TestRunner {
  override onCollectStart(file: RunnerTestFile): void {
    super.onCollectStart(file)
    const plan = this.injectValue('liveEvalsRun') as RunPlan | undefined
    if (plan !== undefined) file.meta.liveEvalsRunStamp = runStampOf(plan)
  }

  override onBeforeTryTask(test: RunnerTask, options: TryOptions): void {
    super.onBeforeTryTask(test, options)
    const meta = test.meta.liveEvals
    if (meta !== undefined) resetAttemptMeta(meta, options.retry)
  }
}
