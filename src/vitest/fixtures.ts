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

function unbound(name: string): never {
  throw new Error(
    `The ${name} fixture is bound per scenario by scenarioSuite(); use it inside a suite built by scenarioSuite()`,
  )
}

export const scenarioTest = base
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
      }
      const meta = task.meta.liveEvals
      if (meta !== undefined) {
        meta.row = execution.row
        bindRunToMeta(run, meta)
      }
      await attachScenarioAudio(annotate, execution.artifacts)
      return run
    },
  )
