// The fixtures of a scenario test. Each test gets its own caller audio, application and assistant session, and
// everything it opens is closed when it ends, failed or not (onCleanup). liveSession runs on the test's
// callerAudio and toolState: the audio a test reads is the audio streamed, the state it reads is the state the
// assistant changed. Settings and scenarios come from the run plan (resolved once in the main process); the
// phase's module (src/phases/registry.ts) says how callers are produced and conversations driven. The offline
// GPT-Live server is shared by the tests of one file and stopped after them. `scenario` and `architecture` are
// placeholders that the suite helper binds per describe block with test.override.
// The chain is built on first use, inside a test file's collection, never when the module is imported:
// `test.extend` needs Vitest's current suite, and `import 'live-evals'` must work in a plain script
// (vitest.config.ts, a dataset generator) where there is none.
import { test as base, inject } from 'vitest'
import type { AssistantApplication } from '../assistants/application.ts'
import type { AssistantArchitecture, ScenarioApplication } from '../assistants/architectures/index.ts'
import { withCassetteExtension } from '../cassettes/row-extension.ts'
import { unstartedReplayOf } from '../cassettes/unstarted-replay.ts'
import type { PhaseSettings } from '../config/index.ts'
import { settingsForModel } from '../config/live-models.ts'
import { armedScenarioEnv } from '../explain/arm-env.ts'
import { scenarioFaultChoice } from '../faults/scenario-profile.ts'
import { judgeOptionsFromSettings } from '../grading/judge/options-from-settings.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import type { ScenarioEnv } from '../phases/engine/execution.ts'
import { failedExecution, rowRecordingOf } from '../phases/engine/record.ts'
import { runScenario } from '../phases/engine/run-scenario.ts'
import { scenarioApplicationFor } from '../phases/engine/scenario-application.ts'
import { stageFailureOf } from '../phases/engine/stage.ts'
import { phaseModule } from '../phases/registry.ts'
import { loadInterventions, NO_INTERVENTIONS } from '../phases/run/interventions/index.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { attachScenarioAudio, attachScenarioTimeline } from './attachments.ts'
import type { LiveEvalsTaskMeta } from './meta.ts'
import { modelLimiters } from './model-limiters.ts'
import { runPlanOf } from './provided.ts'
import type { ExplainArmBinding } from './rerun-suite.ts'
import { plannedRunFor } from './run-plan.ts'
import { noteRunStopping, throwIfRunStopped } from './run-stop.ts'
import { claimScenarioTrial, DuplicateScenarioError } from './scenario-claim.ts'
import type { ScenarioTestAPI } from './scenario-context.ts'
import { scenarioFailureOf } from './scenario-failure.ts'
import { bindRunToMeta, type ScenarioRun, scenarioRunOf } from './scenario-run.ts'
import type { AssistantArchitecture as ArchitectureName } from './settings.ts'
import { printUnderTest } from './test-console.ts'
import { verdictOf } from './verdict.ts'
import { recordVerdict } from './verdict-record.ts'

function unbound(name: string): never {
  throw new Error(
    `The ${name} fixture is bound per scenario by scenarioSuite(); use it inside a suite built by scenarioSuite()`,
  )
}

// The executed run of each test (by task id), for the verdict: the liveSession fixture fills it.
const executedRuns = new Map<string, ScenarioRun>()

// Typed by name (scenario-context.ts): the inferred chain would be a fifteen-deep Omit type in every .d.ts.
const buildScenarioTest = (): ScenarioTestAPI =>
  base
    // First and automatic, so it is cleaned up last: when the test body and every other fixture are done, the
    // test's state and its results.json row are made to agree (src/vitest/verdict.ts).
    .extend('verdict', { auto: true }, ({ task }, { onCleanup }) => {
      onCleanup(async () => {
        const meta = task.meta.liveEvals
        const result = task.result
        const run = executedRuns.get(task.id)
        executedRuns.delete(task.id)
        if (meta === undefined || result === undefined) return
        if (result.state !== 'pass' && result.state !== 'fail') return
        const verdict = verdictOf({
          scenarioId: meta.scenarioId,
          title: task.name,
          state: result.state,
          errors: result.errors ?? [],
          grades: meta.grades,
          row: meta.row,
          expectedFailure: meta.expectedFailure ?? null,
        })
        meta.row = verdict.row
        meta.sealed = true
        if (run !== undefined) await recordVerdict(run, verdict.row)
        if (verdict.failTestWith !== null) throw new Error(verdict.failTestWith)
      })
    })
    .extend('runPlan', { scope: 'worker' }, () => runPlanOf({ liveEvalsRun: inject('liveEvalsRun') }))
    .extend('phase', { scope: 'worker' }, ({ runPlan }) => phaseModule(runPlan.phase))
    .extend('suiteSettings', { scope: 'worker' }, ({ runPlan }): PhaseSettings => runPlan.settings)
    .extend('offlineServer', { scope: 'file' }, async ({ runPlan }, { onCleanup }) => {
      if (runPlan.mode !== 'offline') return null
      const server = await startOfflineLiveServer()
      onCleanup(() => server.close())
      return server
    })
    // RUN's scheduled caller interventions, read once per file (the plan already checked the file and its ids, so a
    // broken one stops the run before it starts); other phases have none.
    .extend('interventions', { scope: 'file' }, async ({ runPlan }) => {
      const settings = runPlan.settings
      if (settings.phase !== 'run') return NO_INTERVENTIONS
      return loadInterventions(settings.simulation.interventions_file, null)
    })
    // One caller source (and, live, one synthesizer and its cache) per file.
    .extend('callerSource', { scope: 'file' }, ({ phase, suiteSettings }) =>
      phase.callerSource(suiteSettings),
    )
    .extend('scenario', (): LoadedScenario => unbound('scenario'))
    .extend('architecture', (): ArchitectureName => unbound('architecture'))
    // The GPT-Live model of this test: bound per describe by scenarioSuite; null is the plan's only model.
    .extend('model', (): string | null => null)
    // One limiter per model per file: the service limits each model's concurrent sessions separately.
    .extend('modelLimiters', { scope: 'file' }, ({ suiteSettings }) => modelLimiters(suiteSettings))
    // The assistant under test's application, bound per suite (null: the bundled restaurant example).
    .extend('assistant', (): AssistantApplication | null => null)
    // A run started by `live-evals explain`: the arm, bound per arm by the suite (src/vitest/rerun-suite.ts).
    .extend('explainArm', (): ExplainArmBinding | null => null)
    // One object per architecture and assistant per file (live client delegation holds one openai client).
    .extend('architectures', { scope: 'file' }, ({ suiteSettings }) => {
      const built = new Map<AssistantApplication | null, Record<ArchitectureName, AssistantArchitecture>>()
      return (assistant: AssistantApplication | null) => {
        let pair = built.get(assistant)
        if (pair === undefined) {
          const choice = assistant === null ? {} : { application: assistant }
          pair = {
            responses: architectureFor('responses', suiteSettings, choice),
            client: architectureFor('client', suiteSettings, choice),
          }
          built.set(assistant, pair)
        }
        return pair
      }
    })
    .extend(
      'scenarioEnv',
      ({
        runPlan,
        suiteSettings,
        offlineServer,
        callerSource,
        architectures,
        architecture,
        model,
        assistant,
        interventions,
        scenario,
        explainArm,
        phase,
        task,
      }): ScenarioEnv<PhaseSettings> => {
        const planned = plannedRunFor(runPlan, architecture, model, explainArm?.arm ?? null)
        const runDirectory = planned.directory
        const env: ScenarioEnv<PhaseSettings> = {
          // scenarioSuite gives each test of a trials run its trial (src/vitest/plugin/trial-meta.ts).
          trial: task.meta.liveEvalsTrial?.trial ?? null,
          // The settings of this test's model (live_model and its concurrency); a single-model plan's own.
          settings:
            planned.model === undefined ? suiteSettings : settingsForModel(suiteSettings, planned.model),
          runDirectory,
          offlineServer,
          architecture: architectures(assistant)[architecture],
          callerSource,
          // Live with grading enabled: the semantic judge (one client and rate limiter per worker); otherwise null.
          judge: judgeOptionsFromSettings(suiteSettings, { runDirectory }),
          interventions,
          // The run's fault profile, else the scenario's own tag; a tag naming none fails the scenario at input_setup.
          ...scenarioFaultChoice(scenario, suiteSettings.execution.faults),
        }
        if (explainArm === null) return withTestRecording(task.meta.liveEvals, scenario, env)
        const trial = env.trial ?? 1
        const draws = explainArm.draws[trial - 1]
        if (draws === undefined)
          throw new Error(`explain arm ${explainArm.arm} has no draw for trial ${trial}`)
        return withTestRecording(
          task.meta.liveEvals,
          scenario,
          armedScenarioEnv(env, {
            phase,
            scenarioId: scenario.id,
            architecture,
            assistant,
            change: explainArm.change,
            draws,
            faults: explainArm.faults,
          }),
        )
      },
    )
    // The request exactly as liveSession streams it. A request that cannot be prepared (text-to-speech failed)
    // still leaves its infrastructure_error row, naming the stage, before the test fails.
    .extend('callerAudio', async ({ runPlan, scenario, scenarioEnv, task, signal }) => {
      const meta = task.meta.liveEvals
      // Before anything of the scenario runs or is written: a second spec file evaluating it fails here, with no
      // row of its own (the first spec file's row is the scenario's).
      try {
        await claimScenarioTrial(scenarioEnv.runDirectory, scenario.id, scenarioEnv.trial ?? null, {
          specFile: task.file.filepath,
          testId: task.id,
        })
      } catch (error) {
        if (error instanceof DuplicateScenarioError && meta !== undefined)
          meta.duplicateOf = { firstSpecFile: error.firstSpecFile, specFile: task.file.filepath }
        throw error
      }
      try {
        await throwIfRunStopped(scenarioEnv.runDirectory, scenario.id)
        return await scenarioEnv.callerSource.prepare(scenario, { signal })
      } catch (error) {
        await noteRunStopping(error, runPlan)
        // Under replay the failure is the replay's (a cassette missing or refused, or no recorded speech for what
        // the scenario says now), so the row lands in its bucket of the replay tally.
        const replay = await unstartedReplayOf(error, { scenario, env: scenarioEnv })
        if (meta !== undefined && !meta.sealed) {
          const { row } = failedExecution(
            scenario,
            replay?.failure ?? stageFailureOf(error, 'input_setup'),
            undefined,
            scenarioEnv.trial ?? null,
          )
          meta.row = replay === null ? row : withCassetteExtension(row, replay.cassette)
        }
        throw scenarioFailureOf(replay?.error ?? error)
      }
    })
    // The scenario's application: liveSession's assistant uses this one, so its state is the state after the run.
    .extend(
      'toolState',
      ({ scenario, scenarioEnv }): ScenarioApplication => scenarioApplicationFor(scenarioEnv, scenario),
    )
    .extend(
      'liveSession',
      async ({
        runPlan,
        phase,
        scenario,
        scenarioEnv,
        callerAudio,
        toolState,
        modelLimiters,
        task,
        annotate,
        signal,
      }) => {
        const execution = await modelLimiters(scenarioEnv.settings.models.live_model).run(
          () =>
            runScenario(phase, scenario, scenarioEnv, {
              signal,
              callerAudio,
              application: toolState,
              onFailure: (error) => noteRunStopping(error, runPlan),
              print: (text) => printUnderTest(task, text),
            }),
          signal,
        )
        const run: ScenarioRun = scenarioRunOf(
          {
            scenarioId: scenario.id,
            architecture: scenarioEnv.architecture.name,
            expected: scenario.expected,
            failure: execution.failure,
            row: execution.row,
            detailsPath: execution.artifacts.details,
          },
          execution,
        )
        const meta = task.meta.liveEvals
        // A test that already ended (it timed out while this ran) keeps the verdict it got.
        if (meta !== undefined && !meta.sealed) {
          meta.row = execution.row
          bindRunToMeta(run, meta)
          executedRuns.set(task.id, run)
        }
        await attachScenarioAudio(annotate, execution.artifacts)
        await attachScenarioTimeline(annotate, scenarioEnv.runDirectory, execution.row)
        return run
      },
    )

/**
 * Notes in the test's meta the recording its scenario is to play (WALK), from the caller source of the final
 * environment, before anything of the scenario runs: every scenario fixture starts from the environment (an
 * overridden callerAudio too). It is where each row made from the test takes its recording from when the row was
 * made without the execution's: a request that could not be read, a failed session, a timeout
 * (reporters/run-results.ts).
 */
function withTestRecording(
  meta: LiveEvalsTaskMeta | undefined,
  scenario: LoadedScenario,
  env: ScenarioEnv<PhaseSettings>,
): ScenarioEnv<PhaseSettings> {
  const recording = env.callerSource.recordingOf?.(scenario)
  if (recording !== undefined && meta !== undefined) meta.recording = rowRecordingOf(recording)
  return env
}

export type ScenarioTest = ScenarioTestAPI

let built: ScenarioTest | null = null

/** The scenario test with its fixtures (built once per test module, at its first call, during collection). */
export function scenarioTest(): ScenarioTest {
  built ??= buildScenarioTest()
  return built
}
