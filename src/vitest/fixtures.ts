// The fixtures of a scenario test. Each test gets its own caller audio, application and assistant session, and
// everything it opens is closed when it ends, failed or not (onCleanup). liveSession runs on the test's
// callerAudio and toolState: the audio a test reads is the audio streamed, the state it reads is the state the
// assistant changed. The offline GPT-Live server is shared by
// the tests of one file and stopped after them. `scenario` and `architecture` are placeholders that the suite
// helper binds per describe block with test.override.
import { test as base, inject } from 'vitest'
import type { CrawlSettings } from '../config/index.ts'
import type { SingleTurnEnv } from '../phases/single-turn/types.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { attachScenarioAudio } from './attachments.ts'
import { runPlanOf } from './provided.ts'
import { plannedRunFor } from './run-plan.ts'
import { bindRunToMeta, type ScenarioRun } from './scenario-run.ts'
import type { AssistantArchitecture } from './settings.ts'
import { loadSuiteSettings } from './settings.ts'
import {
  callerAudioFailure,
  clientControllerFor,
  createSpeechSynthesizer,
  createToolState,
  executeScenario,
  prepareCallerAudio,
} from './single-turn.ts'
import { verdictOf } from './verdict.ts'
import { recordVerdict } from './verdict-record.ts'

function unbound(name: string): never {
  throw new Error(
    `The ${name} fixture is bound per scenario by scenarioSuite(); use it inside a suite built by scenarioSuite()`,
  )
}

// The executed run of each test (by task id), for the verdict: the liveSession fixture fills it.
const executedRuns = new Map<string, ScenarioRun>()

export const scenarioTest = base
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
      })
      meta.row = verdict.row
      meta.sealed = true
      if (run !== undefined) await recordVerdict(run, verdict.row)
      if (verdict.failTestWith !== null) throw new Error(verdict.failTestWith)
    })
  })
  .extend('runPlan', { scope: 'worker' }, () => runPlanOf({ liveEvalsRun: inject('liveEvalsRun') }))
  .extend('suiteSettings', { scope: 'file' }, ({ runPlan }): CrawlSettings => {
    if (runPlan.phase !== 'crawl') throw new Error(`No single-turn suite for the ${runPlan.phase} phase`)
    const settings = loadSuiteSettings('crawl', runPlan.configFile)
    // The plan was made in the main process; a worker that resolved another mode would grade a different run.
    if (settings.execution.mode !== runPlan.mode) {
      throw new Error(
        `This worker resolved execution mode "${settings.execution.mode}" but the run was planned as "${runPlan.mode}"; ` +
          'do not change LIVE_EVALS_MODE while a run starts',
      )
    }
    return settings
  })
  .extend('offlineServer', { scope: 'file' }, async ({ runPlan }, { onCleanup }) => {
    if (runPlan.mode !== 'offline') return null
    const server = await startOfflineLiveServer()
    onCleanup(() => server.close())
    return server
  })
  .extend('speech', { scope: 'file' }, ({ suiteSettings }) => createSpeechSynthesizer(suiteSettings))
  // One factory (and, live, one openai client) per file; every scenario still gets its own backend.
  .extend('clientController', { scope: 'file' }, ({ suiteSettings }) => clientControllerFor(suiteSettings))
  .extend('scenario', (): LoadedScenario => unbound('scenario'))
  .extend('architecture', (): AssistantArchitecture => unbound('architecture'))
  .extend(
    'scenarioEnv',
    ({ runPlan, suiteSettings, offlineServer, speech, clientController, architecture }): SingleTurnEnv => ({
      phase: 'crawl',
      settings: suiteSettings,
      runDirectory: plannedRunFor(runPlan, architecture).directory,
      offlineServer,
      speech,
      architecture,
      ...(architecture === 'client' ? { clientController } : {}),
    }),
  )
  // The request exactly as liveSession streams it. A request that cannot be prepared (text-to-speech failed)
  // still leaves its infrastructure_error row, naming the stage, before the test fails.
  .extend('callerAudio', async ({ scenario, scenarioEnv, task, signal }) => {
    try {
      return await prepareCallerAudio(scenario, scenarioEnv, { signal })
    } catch (error) {
      const meta = task.meta.liveEvals
      if (meta !== undefined) meta.row = callerAudioFailure(scenario, error).row
      throw error
    }
  })
  // The scenario's application: liveSession's assistant uses this one, so its state is the state after the run.
  .extend('toolState', ({ scenario, architecture }) => createToolState(scenario, architecture))
  .extend(
    'liveSession',
    async ({ scenario, scenarioEnv, callerAudio, toolState, task, annotate, signal }) => {
      const execution = await executeScenario(scenario, scenarioEnv, {
        signal,
        callerAudio,
        application: toolState,
      })
      const run: ScenarioRun = {
        scenarioId: scenario.id,
        architecture: scenarioEnv.architecture,
        expected: scenario.expected,
        observation: execution.observation,
        grade: execution.grade,
        failure: execution.failure,
        row: execution.row,
        detailsPath: execution.artifacts.details,
      }
      const meta = task.meta.liveEvals
      // A test that already ended (it timed out while this ran) keeps the verdict it got.
      if (meta !== undefined && !meta.sealed) {
        meta.row = execution.row
        bindRunToMeta(run, meta)
        executedRuns.set(task.id, run)
      }
      await attachScenarioAudio(annotate, execution.artifacts)
      return run
    },
  )
