// The tests of a run started by `live-evals explain` (src/explain/rerun-plan.ts). The spec file that evaluated the
// explained scenario (its suite holds the scenario and the assistant the run's row names) registers, per arm, one
// test per trial of the scenario as the run ran it, under the suite's own assistant and test body:
//   explain <arm> > <architecture> > <scenario id> > <title> [trial i/k]
// Every other spec file of the project registers one skipped test saying so (Vitest fails a file with no test).
// A declared expected failure does not apply: explain asks what flips the row, not whether it failed as declared.
import { describe, test as vitestTest } from 'vitest'
import type { AssistantApplication } from '../assistants/application.ts'
import type { ArmChange, LoadedRerunPlan } from '../explain/rerun-plan.ts'
import type { TrialDraws } from '../explain/trial-draws.ts'
import { recordedFaultProfile, type ScenarioFaultProfile } from '../faults/scenario-profile.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import { scenarioTestMeta } from './meta.ts'
import { trialsToRegister, trialTestName } from './plugin/trial-meta.ts'
import type { RunPlan } from './run-plan-schema.ts'
import type { ScenarioTestAPI, ScenarioTestContext } from './scenario-context.ts'

/** What a test of one arm needs to carry the arm out (src/explain/arm-env.ts): bound per arm by the suite. */
export interface ExplainArmBinding {
  arm: string
  change: ArmChange | null
  /** Trial i runs with draws[i - 1]. */
  draws: TrialDraws[]
  /** The fault profile the failed row ran under, with its recorded seed; null when it ran clean. */
  faults: ScenarioFaultProfile | null
}

export interface RerunSuite {
  test: ScenarioTestAPI
  plan: RunPlan
  rerun: LoadedRerunPlan
  /** The suite's own scenarios (its dataset or inline ones). */
  scenarios: readonly LoadedScenario[]
  assistant: AssistantApplication | null
  /** The name the suite's rows carry (its assistant's, or the bundled example's in this architecture). */
  assistantName: string
  source: string
  body: (context: ScenarioTestContext) => Promise<void> | void
  tags: (scenario: LoadedScenario) => string[]
}

export function registerRerunArms(suite: RerunSuite): void {
  const { test, plan, rerun } = suite
  const holds =
    suite.scenarios.some((scenario) => scenario.id === rerun.scenario_id) &&
    (rerun.assistant === null || rerun.assistant === suite.assistantName)
  if (!holds) {
    vitestTest.skip(
      `live-evals explain re-runs ${rerun.scenario_id}${rerun.assistant === null ? '' : ` of ${rerun.assistant}`}: not this spec file's`,
      () => {},
    )
    return
  }
  const faults = rerun.faults === null ? null : recordedFaultProfile(rerun.faults)
  const trials = trialsToRegister(rerun.draws.length)
  for (const run of plan.runs) {
    const arm = rerun.arms.find((candidate) => candidate.arm === run.arm)
    if (arm === undefined) continue
    const binding: ExplainArmBinding = { arm: arm.arm, change: arm.change, draws: rerun.draws, faults }
    const scenario = arm.scenario
    describe(`explain ${arm.arm}`, () => {
      describe(run.architecture, () => {
        test.override('architecture', run.architecture)
        test.override('assistant', suite.assistant)
        test.override('explainArm', binding)
        describe(scenario.id, () => {
          test.override('scenario', scenario)
          for (const trial of trials) {
            test(
              trialTestName(scenario.title, trial),
              {
                tags: suite.tags(scenario),
                meta: scenarioTestMeta(
                  {
                    phase: plan.phase,
                    scenario,
                    architecture: run.architecture,
                    assistant: suite.assistantName,
                    source: suite.source,
                    runDirectory: run.directory,
                  },
                  trial,
                ),
              },
              suite.body,
            )
          }
        })
      })
    })
  }
}
