// The `session.start` configuration for the assistant under test, from its plan only. Client delegation
// sends `{type: "client"}` and nothing of the backend: the application runs its backend itself.
import type { SessionConfig } from 'openai/resources/live/live'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import type { AssistantPlan } from './plan.ts'

/** GPT-Live's primary-WebSocket audio: PCM16 at 24 kHz in both directions. */
export const SESSION_AUDIO_FORMAT = { type: 'audio/pcm', rate: SAMPLE_RATE_HZ } as const

export interface SessionStartOptions {
  /**
   * Let the delegated model call several tools in one response. Left out by default, which keeps the service's
   * default; the harness handles parallel calls either way.
   */
  parallelToolCalls?: boolean
}

/** The `session` of the `session.start` event (LiveSession.start sends the event around it). */
export function buildSessionStart(plan: AssistantPlan, options: SessionStartOptions = {}): SessionConfig {
  const { models } = plan
  const config: SessionConfig = {
    model: models.liveModel,
    instructions: plan.voiceInstructions,
    audio: { format: { ...SESSION_AUDIO_FORMAT }, output: { voice: models.voice } },
  }
  if (plan.input.length > 0) config.input = structuredClone(plan.input)
  if (plan.architecture === 'client') {
    config.delegation = { type: 'client' }
    return config
  }
  config.delegation = {
    type: 'responses',
    responses: {
      model: models.backendModel,
      instructions: plan.backendInstructions,
      tools: structuredClone(plan.liveTools),
      reasoning: { effort: models.backendReasoningEffort },
      max_output_tokens: models.backendMaxOutputTokens,
      text: { verbosity: models.backendVerbosity },
      ...(options.parallelToolCalls === undefined ? {} : { parallel_tool_calls: options.parallelToolCalls }),
    },
  }
  return config
}
