// Live client delegation: the application's controller whose backend is the OpenAI reference backend on the
// Responses API. The harness plays the application here, so the backend gets exactly what an application
// would give it: its own prompt with the authorized factual context (the plan's backend instructions, never
// sent to GPT-Live), the client copy's tool definitions, and a tool callback into this scenario's own
// ToolRuntime, so executions are recorded and graded like any other tool call.
import type OpenAI from 'openai'
import type { Phase, SettingsFor } from '../../config/index.ts'
import { OpenAiReferenceBackend } from '../client/backend/openai-backend.ts'
import { backendOpenAiClient } from '../client/backend/openai-client.ts'
import { runtimeToolCallback } from '../client/backend/tool-callback.ts'
import type { ClientBackendFactory } from './client.ts'

export interface LiveClientBackendOptions {
  /**
   * Another Responses endpoint. Default: the openai SDK's own choice, i.e. OPENAI_BASE_URL when set (the live
   * wiring test points it at the loopback test server), else the OpenAI API.
   */
  baseURL?: string
  /** A ready client (tests); when given, the keys in the settings are not read. */
  client?: OpenAI
}

/**
 * The client-delegation backend of a live run. The key is OPENAI_RESPONSES_API_KEY, else OPENAI_API_KEY, as
 * resolved in the settings (shell, `.env` file); models come from the settings' `[models]` through the plan.
 * One openai client serves every scenario of the suite; each scenario gets its own backend and conversation.
 */
export function liveClientBackend(
  settings: Pick<SettingsFor<Phase>, 'credentials'>,
  options: LiveClientBackendOptions = {},
): ClientBackendFactory {
  const client =
    options.client ??
    backendOpenAiClient({
      env: {
        OPENAI_RESPONSES_API_KEY: settings.credentials.responses_api_key ?? undefined,
        OPENAI_API_KEY: settings.credentials.openai_api_key ?? undefined,
      },
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    })
  return ({ plan, runtime, application }) => {
    if (plan.architecture !== 'client') {
      throw new Error(
        `Scenario ${plan.scenarioId}: the live client backend was given a ${plan.architecture} plan; ` +
          'it serves client delegation only.',
      )
    }
    return new OpenAiReferenceBackend({
      client,
      model: plan.models.backendModel,
      instructions: plan.backendInstructions,
      tools: [...application.tools],
      reasoningEffort: plan.models.backendReasoningEffort,
      maxOutputTokens: plan.models.backendMaxOutputTokens,
      callTool: runtimeToolCallback(runtime),
    })
  }
}
