// The single-turn phase as the fixtures use it: one place that knows the phase module's entry points.
import OpenAI from 'openai'
import { type ClientControllerFactory, offlineClientController } from '../assistants/assistant-session.ts'
import { SpeechSynthesizer } from '../audio/synthesis.ts'
import type { CrawlSettings } from '../config/index.ts'
import { executeSingleTurnScenario, failedExecution, stageFailureOf } from '../phases/single-turn/execute.ts'
import type { ToolState } from '../phases/single-turn/tool-state.ts'
import type { CallerAudio, SingleTurnEnv, SingleTurnExecution } from '../phases/single-turn/types.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import { liveClientController } from './live-client-controller.ts'
import { speechCacheDirectory } from './phase-runs.ts'

export { prepareCallerAudio } from '../phases/single-turn/caller-audio.ts'
export { createToolState } from '../phases/single-turn/tool-state.ts'

/**
 * Live runs speak the request with OpenAI text-to-speech behind the cache (bypassed for entries older than this
 * run when `audio.refresh_audio` is set); offline runs need no synthesizer.
 */
export function createSpeechSynthesizer(settings: CrawlSettings): SpeechSynthesizer | null {
  if (settings.execution.mode !== 'live') return null
  const apiKey = settings.credentials.openai_api_key
  if (apiKey === null) {
    throw new Error('OPENAI_API_KEY is required for a live run; or run offline with LIVE_EVALS_MODE=offline')
  }
  return new SpeechSynthesizer({
    client: new OpenAI({ apiKey }),
    cacheDir: speechCacheDirectory(settings),
    // Refresh ignores what was cached before this run; what this synthesizer makes is still shared by the file's tests.
    refresh: settings.audio.refresh_audio,
  })
}

/**
 * The application's controller for client delegation. Offline it is the client copy's deterministic backend;
 * live it is the OpenAI reference backend on the Responses API. Never the offline one in a live run.
 */
export function clientControllerFor(settings: CrawlSettings): ClientControllerFactory {
  return settings.execution.mode === 'offline' ? offlineClientController : liveClientController(settings)
}

/**
 * Runs one scenario end to end with the test's own caller audio and application (the `callerAudio` and
 * `toolState` fixtures), so what the test holds is what was streamed and changed. Failures come back as an
 * infrastructure_error row naming their stage.
 */
export function executeScenario(
  scenario: LoadedScenario,
  env: SingleTurnEnv,
  options: { signal: AbortSignal; callerAudio: CallerAudio; application: ToolState },
): Promise<SingleTurnExecution> {
  return executeSingleTurnScenario(scenario, env, options)
}

/**
 * The row of a scenario whose caller audio could not be prepared (the `callerAudio` fixture failed): the same
 * infrastructure_error, with its stage, that executeScenario would have produced.
 */
export function callerAudioFailure(scenario: LoadedScenario, error: unknown): SingleTurnExecution {
  return failedExecution(scenario, stageFailureOf(error, 'input_setup'))
}
