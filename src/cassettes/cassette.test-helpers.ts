// Builders for cassette tests: a live-mode CRAWL execution of a bundled scenario against loopback stand-ins of
// the OpenAI services (the offline GPT-Live server answering under the run's API key, and the fake Responses
// server for the client backend), recorded or replayed through the engine exactly as a Vitest run does.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AssistantApplication } from '../assistants/application.ts'
import { clientDelegation, responsesDelegation } from '../assistants/architectures/index.ts'
import { liveClientBackend } from '../assistants/architectures/live-client-backend.ts'
import type { Architecture } from '../assistants/frontend/index.ts'
import { ToolArgumentError } from '../assistants/runtime/tool-executor.ts'
import type { CrawlSettings } from '../config/index.ts'
import { syntheticCallerSource } from '../phases/engine/caller-sources.ts'
import type { ScenarioEnv, SingleTurnExecution } from '../phases/engine/execution.ts'
import {
  BUNDLED_CRAWL_DATASET,
  executeScenario,
  settingsFromToml,
} from '../phases/single-turn/test-support.ts'
import { assistantVisibleInput, type Scenario } from '../scenarios/index.ts'
import type { JsonObject } from '../scenarios/json-object.ts'
import type { OfflineLiveServer } from '../testing/live-server/index.ts'

export const SENTINEL_KEY = 'sk-test-CASSETTE-sentinel-key-9b1e4d7a0c'

export interface LiveStandIns {
  live: OfflineLiveServer
  responsesBaseURL: string
}

/** CRAWL settings for a live run against the stand-ins, with extra environment (LIVE_EVALS_RECORD, …). */
export function liveCrawlSettings(
  standIns: LiveStandIns,
  cassettes: string,
  env: Record<string, string>,
  tomlLines: readonly string[] = [],
): Promise<CrawlSettings> {
  return settingsFromToml(
    'crawl',
    [
      '[dataset]',
      `path = ${JSON.stringify(BUNDLED_CRAWL_DATASET)}`,
      '[execution]',
      'response_timeout_seconds = 20',
      `cassettes_dir = ${JSON.stringify(cassettes)}`,
      '[grading]',
      'enabled = false',
      ...tomlLines,
    ],
    {
      OPENAI_LIVE_ENDPOINT: standIns.live.baseURL,
      OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
      ...env,
    },
  )
}

export function liveArchitecture(
  name: Architecture,
  settings: CrawlSettings,
  responsesBaseURL: string,
  application?: AssistantApplication,
) {
  return name === 'responses'
    ? responsesDelegation(application)
    : clientDelegation(liveClientBackend(settings, { baseURL: responsesBaseURL }), application)
}

/**
 * The bundled application with its parts changed: what a pull request changing the assistant would do. `toolOutput`
 * rewrites what a tool returns after it ran (its change to the state stands); `refusedTool` is a tool that now fails
 * before it changes anything, as a broken backend would: the model gets that message as the call's error, and the
 * execution is recorded as failed.
 */
export function changedApplication(change: {
  voicePrompt?: (prompt: string) => string
  toolOutput?: (output: JsonObject) => JsonObject
  refusedTool?: { name: string; message: string }
}): AssistantApplication {
  const base = responsesDelegation().application
  return {
    name: base.name,
    voicePrompt: change.voicePrompt?.(base.voicePrompt) ?? base.voicePrompt,
    backendPrompt: base.backendPrompt,
    tools: base.tools,
    publicFacts: (facts) => base.publicFacts(facts),
    createExecutor: (options) => {
      const inner = base.createExecutor(options)
      const { toolOutput, refusedTool } = change
      if (toolOutput === undefined && refusedTool === undefined) return inner
      return {
        get definitions() {
          return inner.definitions
        },
        get executions() {
          return inner.executions
        },
        execute: async (name, args, callId) => {
          if (name === refusedTool?.name) throw new ToolArgumentError(refusedTool.message)
          const output = await inner.execute(name, args, callId)
          return toolOutput === undefined ? output : toolOutput(output)
        },
        snapshot: () => inner.snapshot(),
      }
    },
    ...(base.offlineBehaviour === undefined ? {} : { offlineBehaviour: base.offlineBehaviour.bind(base) }),
  }
}

/**
 * One scenario through the engine in live mode. When `register` is set, the offline server answers the session
 * opened with the run's key as the architecture's offline behaviour would (what a recording would have heard).
 */
export async function executeLive(
  scenario: Scenario,
  settings: CrawlSettings,
  architectureName: Architecture,
  standIns: LiveStandIns,
  options: {
    register: boolean
    runDirectory?: string
    application?: AssistantApplication
    /** What the caller says instead of the scenario's text (a changed caller source). */
    callerText?: string
  },
): Promise<SingleTurnExecution> {
  const architecture = liveArchitecture(
    architectureName,
    settings,
    standIns.responsesBaseURL,
    options.application,
  )
  const visible = assistantVisibleInput(scenario)
  const spoken =
    options.callerText === undefined
      ? scenario
      : { ...scenario, input: { ...scenario.input, text: options.callerText } }
  const callerAudio = await syntheticCallerSource.prepare(spoken, {})
  const key = settings.credentials.openai_api_key
  if (options.register && key !== null) {
    standIns.live.registerSession(key, {
      hearing: callerAudio.hearing,
      behaviour: architecture.offlineBehaviour(visible),
    })
  }
  const env: ScenarioEnv = {
    settings,
    runDirectory: options.runDirectory ?? (await mkdtemp(join(tmpdir(), 'live-evals-cassette-run-'))),
    offlineServer: null,
    architecture,
    callerSource: syntheticCallerSource,
  }
  return executeScenario(scenario, env, { callerAudio })
}
