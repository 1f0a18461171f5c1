// The live RUN conversation's options from the run's settings: both sessions on the configured GPT-Live endpoint
// with the run's key, the caller's brief (built from simulation_parameters and input.text only), its own
// reasoning backend, the completion observer (the only reader of evaluator-only facts), the preset on the
// caller's voice, the call's timing rules, and the real-time media clock at 20 ms frames (in a replay, that
// recording's frames on the virtual clock, synchronised with the replay server).
import OpenAI from 'openai'
import type { ScenarioApplication } from '../../assistants/architectures/index.ts'
import { assistantModelsFromSettings } from '../../assistants/frontend/models.ts'
import { cassetteFetch, recordedCallerProbe, recordingSync, replayClock } from '../../cassettes/scope.ts'
import type { RunSettings } from '../../config/index.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import { StageError } from '../engine/stage.ts'
import { callerBriefOf } from './brief.ts'
import { callerPreset } from './caller-preset.ts'
import type { LiveConversationOptions } from './live/conversation.ts'
import { observerFactsOf } from './live/observer-call.ts'
import { liveCallRulesFrom, observerCallFrom } from './live/rules.ts'

const noWait = async (): Promise<void> => {}

/** The live relay's frame: GPT-Live audio is exchanged in 20 ms chunks. */
export const LIVE_TICK_MS = 20

export function liveConversationOptions(
  scenario: Scenario,
  env: Pick<ScenarioEnv<RunSettings>, 'settings' | 'architecture'>,
  application: ScenarioApplication,
  assistantFirstPrompt: string | null,
  signal?: AbortSignal,
): LiveConversationOptions {
  const { settings, architecture } = env
  const apiKey = settings.credentials.openai_api_key
  if (apiKey === null) {
    throw new StageError(
      'connection',
      'Live RUN needs OPENAI_API_KEY for both sessions; set it, or run offline with LIVE_EVALS_MODE=offline.',
    )
  }
  const parameters = scenario.simulation_parameters
  if (parameters === null) {
    throw new StageError(
      'input_setup',
      `Scenario ${scenario.id} has no simulation_parameters; RUN needs them.`,
    )
  }
  const connection = {
    apiKey,
    ...(settings.connection.live_endpoint === null ? {} : { baseURL: settings.connection.live_endpoint }),
    allowInsecureLoopback: settings.connection.live_allow_insecure_loopback,
  }
  const simulation = settings.simulation
  const replay = replayClock()
  const recording = recordingSync()
  const recordedCallerDone = recordedCallerProbe()
  const observer = observerCallFrom(simulation, new OpenAI({ apiKey, maxRetries: 0, fetch: cassetteFetch }))
  return {
    visibleInput: assistantVisibleInput(scenario),
    architecture,
    application,
    models: assistantModelsFromSettings(settings.models),
    callerModel: simulation.simulator_model,
    brief: callerBriefOf(scenario, assistantFirstPrompt === null ? 'caller' : 'assistant'),
    callerBackend: {
      model: simulation.simulator_backend_model,
      reasoningEffort: simulation.simulator_backend_reasoning_effort,
    },
    connections: { assistant: connection, caller: connection },
    observerFacts: observerFactsOf(scenario),
    backchannels: parameters.persona.backchannels,
    clock: {
      mode: 'real_time',
      tickMs: LIVE_TICK_MS,
      ...(replay === null ? {} : { replay }),
      ...(recording === null ? {} : { recording }),
    },
    preset: callerPreset(settings),
    assistantFirstPrompt,
    rules: liveCallRulesFrom(simulation),
    // A replay retries at once: the recording already holds the retry's answer, and the replay server gives it
    // where the recording got it; waiting out the backoff on the wall clock would put it frames too late.
    observer: observer === null || replay === null ? observer : { ...observer, retry: { sleep: noWait } },
    ...(signal === undefined ? {} : { signal }),
    ...(recordedCallerDone === null ? {} : { recordedCallerDone }),
  }
}
