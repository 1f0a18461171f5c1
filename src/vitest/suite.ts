// scenarioSuite(): one call in a spec file turns a phase's dataset into tests.
//   describe(<architecture>) → describe(<scenario id>) → test(<title>)   (k tests `<title> [trial i/k]` with trials)
// A run of several models (execution.models) puts one describe(<model>) around each model's architectures.
// Each test carries tags (phase, architecture, scenario type) and initial meta, so reporters and filters know it
// before it runs. The scenarios are the run plan's: validated and selected once, in the main process (a bad
// dataset stops the run before any worker starts), and only this shard's when the run is sharded.
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, inject, TestRunner } from 'vitest'
import type { AssistantApplication } from '../assistants/application.ts'
import { restaurantApplication as clientRestaurant } from '../assistants/client/application.ts'
import { restaurantApplication as responsesRestaurant } from '../assistants/responses/application.ts'
import type { Phase } from '../config/index.ts'
import { notRejudged } from '../reporting/extensions/regrade.ts'
import { type LoadedScenario, scenarioType } from '../scenarios/index.ts'
import { assertDefaultBody } from './default-body.ts'
import {
  checkExpectedFailures,
  type ExpectedScenarioFailure,
  expectedFailureBody,
  expectedFailureFor,
  faultScenarioSkipNote,
} from './expected-failures.ts'
import { scenarioTest } from './fixtures.ts'
import { scenarioTestMeta } from './meta.ts'
import { trialsToRegister, trialTestName } from './plugin/trial-meta.ts'
import { projectOptionsOf, runPlanOf } from './provided.ts'
import { registerRerunArms } from './rerun-suite.ts'
import { plannedModels } from './run-plan.ts'
import type { ScenarioTestContext } from './scenario-context.ts'
import type { AssistantArchitecture as ArchitectureName } from './settings.ts'
import { suiteAssistantProblems } from './suite-assistant.ts'
import { type SuiteScenarioSource, suiteScenarios } from './suite-scenarios.ts'
import { architectureTag, phaseTag, scenarioTypeTag } from './tags.ts'

export type { ExpectedScenarioFailure } from './expected-failures.ts'
export type { ScenarioTestContext }

export interface ScenarioSuiteOptions extends SuiteScenarioSource {
  /** The phase, if the spec names it (default: its project's); it must be the project's phase. */
  phase?: Phase
  /** The phase's config.toml, if the spec names it: it must be the file the project was configured with. */
  config?: string | URL
  /**
   * The assistant under test (see defineAssistant); default: the bundled restaurant example. It is served by
   * the run's architectures (Responses delegation, client delegation).
   */
  assistant?: AssistantApplication
  /**
   * The test body of every scenario (default: the task, tool-call and delegation matchers). Its verdict reaches
   * results.json: a failing assertion or a thrown error fails the row (see src/vitest/verdict.ts).
   */
  test?: (context: ScenarioTestContext) => Promise<void> | void
  /**
   * Scenarios that must fail, each on exactly these required checks (an assistant that mishandles something on
   * purpose, such as the bundled offline behaviour under a fault profile). Such a test passes only when its row
   * failed on exactly those checks; the row keeps its real `failed` verdict and records `expected_failure` (see
   * src/vitest/verdict.ts). Default: in offline runs only, in every architecture, and for a fault scenario only
   * under its own fault profile (src/vitest/expected-failures.ts).
   */
  expectedFailures?: readonly ExpectedScenarioFailure[]
}

async function defaultBody({ liveSession, expect, scenarioEnv }: ScenarioTestContext): Promise<void> {
  // A re-grade whose recording holds no answer for today's judge request has no judgment by design (the row says
  // why), like an offline run: the rubric is not asked for.
  assertDefaultBody(
    scenarioEnv.judge != null && !notRejudged(liveSession.row),
    (matcher, soft) => (soft ? expect.soft(liveSession) : expect(liveSession))[matcher](),
    liveSession.interaction,
    liveSession.observation !== null,
  )
}

export async function scenarioSuite(options: ScenarioSuiteOptions = {}): Promise<void> {
  const project = projectOptionsOf(
    { liveEvalsProject: inject('liveEvalsProject') },
    TestRunner.getCurrentSuite().file.projectName,
  )
  const plan = runPlanOf({ liveEvalsRun: inject('liveEvalsRun') })
  if (options.phase !== undefined && options.phase !== plan.phase) {
    throw new Error(
      `scenarioSuite({ phase: '${options.phase}' }) is in a ${plan.phase} project; use phase '${plan.phase}'`,
    )
  }
  if (options.config !== undefined) {
    const configFile = options.config instanceof URL ? fileURLToPath(options.config) : resolve(options.config)
    if (project.configFile !== null && configFile !== project.configFile) {
      throw new Error(
        `scenarioSuite names ${configFile} but its Vitest project was configured with ${project.configFile}; ` +
          'give liveEvalsProject() and scenarioSuite() the same config.toml (LIVE_EVALS_CONFIG replaces both)',
      )
    }
  }
  const specFile = TestRunner.getCurrentSuite().file.filepath
  const { scenarios, source, unusedDataset } = await suiteScenarios(options, plan, specFile)
  // Collection is where a suite's own scenarios become known; Vitest prints it under this spec file.
  if (unusedDataset !== null) console.warn(unusedDataset)
  // A declaration naming no scenario of this suite (or of this shard) declares nothing: that scenario, should it
  // exist and fail, fails its test as usual.
  const declaredFailures = options.expectedFailures ?? []
  checkExpectedFailures(declaredFailures)
  const faults = plan.settings.execution.faults
  const assistant = options.assistant ?? null
  if (assistant !== null) {
    const problems = suiteAssistantProblems(assistant, scenarios, plan.mode)
    if (problems.length > 0) {
      throw new Error(
        `${specFile}: ${problems.length} problem${problems.length === 1 ? '' : 's'} with the assistant under test\n` +
          problems.map((problem) => `  - ${problem}`).join('\n'),
      )
    }
  }
  const declared = new Set(project.declaredTags)
  const declaredOnly = (tags: string[]) => tags.filter((tag) => declared.has(tag))
  // One test per trial (execution.trials); a run of one trial registers exactly the tests it always did.
  const trials = trialsToRegister(plan.settings.execution.trials)

  const test = scenarioTest()
  // The name each row records: the spec's own assistant, or the bundled example each architecture serves.
  const bundledName = { client: clientRestaurant().name, responses: responsesRestaurant().name }
  const tagsOf = (scenario: LoadedScenario, architecture: ArchitectureName) =>
    declaredOnly([
      phaseTag(plan.phase),
      architectureTag(architecture),
      scenarioTypeTag(scenarioType(scenario)),
    ])
  if (plan.rerunPlan !== undefined) {
    // A run started by `live-evals explain`: the explained scenario's arms, if this spec file evaluated it.
    const { architecture } = plan.rerunPlan
    registerRerunArms({
      test,
      plan,
      rerun: plan.rerunPlan,
      scenarios,
      assistant,
      assistantName: assistant?.name ?? bundledName[architecture],
      source,
      body: options.test ?? defaultBody,
      tags: (scenario) => tagsOf(scenario, architecture),
    })
    return
  }
  const registerRun = (run: (typeof plan.runs)[number]) => {
    const assistantName = assistant?.name ?? bundledName[run.architecture]
    describe(run.architecture, () => {
      test.override('architecture', run.architecture)
      if (run.model !== undefined) test.override('model', run.model)
      test.override('assistant', assistant)
      for (const scenario of scenarios) {
        describe(scenario.id, () => {
          test.override('scenario', scenario)
          const expected = expectedFailureFor(declaredFailures, {
            scenario,
            architecture: run.architecture,
            mode: plan.mode,
            faults,
          })
          const skipNote = faultScenarioSkipNote(scenario, faults)
          for (const trial of trials) {
            test(
              trialTestName(scenario.title, trial),
              {
                tags: tagsOf(scenario, run.architecture),
                meta: scenarioTestMeta(
                  {
                    phase: plan.phase,
                    scenario,
                    architecture: run.architecture,
                    assistant: assistantName,
                    source,
                    runDirectory: run.directory,
                    ...(expected === null ? {} : { expectedFailure: { checks: [...expected.checks] } }),
                  },
                  trial,
                ),
              },
              skipNote !== null
                ? ({ skip }) => skip(skipNote)
                : (options.test ?? (expected === null ? defaultBody : expectedFailureBody(expected.checks))),
            )
          }
        })
      }
    })
  }
  const models = plannedModels(plan)
  if (models.length <= 1 || !plan.runs.some((run) => run.multiModel)) {
    for (const run of plan.runs) registerRun(run)
    return
  }
  for (const model of models) {
    describe(model, () => {
      for (const run of plan.runs) if (run.model === model) registerRun(run)
    })
  }
}
