// The runner of live-evals projects: Vitest's own runner plus three duties.
// - Before any test file is collected (so before any test is selected), it validates the run's dataset: a bad
//   dataset fails the files with every violation listed instead of producing a partial suite.
// - It stamps each test file with the run plan, so reporters can write results.json even from merged reports.
// - Before each attempt of a scenario test it clears what the previous attempt recorded: meta survives retries,
//   and a retried test must report only its final attempt's grades and row.
// This module must not import the fixtures at load time: test.extend needs a running suite collector.
import { type RunnerTask, type RunnerTestFile, TestRunner } from 'vitest'
import { resetAttemptMeta } from './meta.ts'
import { runPlanOf } from './provided.ts'
import { type RunPlan, selectedScenarios } from './run-plan.ts'
import { loadSuiteSettings } from './settings.ts'

type TryOptions = Parameters<TestRunner['onBeforeTryTask']>[1]

export default class LiveEvalsRunner extends TestRunner {
  async onBeforeCollect(): Promise<void> {
    const plan = runPlanOf({ liveEvalsRun: this.injectValue('liveEvalsRun') })
    // The global setup validated the dataset already; validating again here catches a dataset edited since
    // (watch mode) and a project that was set up without the global setup.
    const settings = loadSuiteSettings(plan.phase, plan.configFile)
    await selectedScenarios(settings)
  }

  override onCollectStart(file: RunnerTestFile): void {
    super.onCollectStart(file)
    const plan = this.injectValue('liveEvalsRun') as RunPlan | undefined
    if (plan !== undefined) file.meta.liveEvalsRun = plan
  }

  override onBeforeTryTask(test: RunnerTask, options: TryOptions): void {
    super.onBeforeTryTask(test, options)
    const meta = test.meta.liveEvals
    if (meta !== undefined) resetAttemptMeta(meta, options.retry)
  }
}
