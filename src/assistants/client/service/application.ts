// What lives inside the service for one connection: the application's tools and state, and the backend that
// does the delegated work. The service calls both factories with the validated `session.configure`, only after
// the connection passed every check and configured; the factories never see anything from the evaluator but
// that message. The restaurant factories here are the reference: the client copy's tools over the accepted
// initial state (default `{}`), with the offline or the OpenAI Responses backend.
import type OpenAI from 'openai'
import type { ReasoningEffort } from 'openai/resources/shared'
import { type AuthorizedContext, withAuthorizedContext } from '../../frontend/context.ts'
import type { JsonObject } from '../../offline-behaviour.ts'
import type { ToolExecutor } from '../../runtime/tool-executor.ts'
import type { ApplicationBackend, ApplicationToolCallback } from '../backend/application-backend.ts'
import { restaurantOfflineBackend } from '../backend/offline-backend.ts'
import { OpenAiReferenceBackend } from '../backend/openai-backend.ts'
import { clientBackendPrompt } from '../prompts/prompts.ts'
import { publicBusinessFacts, restaurantToolDefinitions } from '../tools/resources.ts'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import type { SessionConfigure } from './protocol/index.ts'

/** What a backend factory is given besides the configure: the way to the tools and the starting state. */
export interface BackendContext {
  /** Runs a tool on this connection's executor (on a later tick) and resolves with its output. */
  callTool: ApplicationToolCallback
  /** The application state the session starts from (a copy the backend may keep). */
  initialState: JsonObject
}

export interface ServiceApplication {
  /** This connection's tools and state. */
  tools(configure: SessionConfigure): ToolExecutor
  /** This connection's backend; closed exactly once when the session ends. */
  backend(configure: SessionConfigure, context: BackendContext): ApplicationBackend
}

/** The client copy's restaurant tools over the configure's accepted state (checked by the session), else `{}`. */
export function restaurantTools(configure: SessionConfigure): ToolExecutor {
  return new RestaurantTools({ initialState: configure.application_state ?? {} })
}

/** What the backend prompt may state: public facts, the starting state, and an accepted summary. */
function authorizedContextOf(configure: SessionConfigure, initialState: JsonObject): AuthorizedContext {
  const context: AuthorizedContext = {
    business_facts: publicBusinessFacts(),
    authorized_application_state: initialState,
  }
  const summary = configure.conversation_summary ?? ''
  if (summary.trim() !== '') context.previous_conversation_summary = summary
  return context
}

/** The restaurant application with the deterministic offline backend. */
export const offlineRestaurantApplication: ServiceApplication = {
  tools: restaurantTools,
  backend: (configure, { callTool, initialState }) =>
    // The startup history reaches the backend through the first handoff's SRT; the summary (when the service
    // accepts scenario context) is the context before it, as in process.
    restaurantOfflineBackend({
      authorizedContext: configure.conversation_summary ?? '',
      initialState,
      callTool,
    }),
}

export interface OpenAiBackendSettings {
  client: OpenAI
  model: string
  reasoningEffort: ReasoningEffort
  maxOutputTokens: number
}

/**
 * The restaurant application with the OpenAI reference backend (store:false, whole replay, 8 tool rounds). The
 * application owns its prompt, tools and model: the configure's `model`, `instructions` and `tools` are ignored,
 * so a connector cannot steer a service's paid backend.
 */
export function openAiRestaurantApplication(settings: OpenAiBackendSettings): ServiceApplication {
  return {
    tools: restaurantTools,
    backend: (configure, { callTool, initialState }) =>
      new OpenAiReferenceBackend({
        client: settings.client,
        model: settings.model,
        instructions: withAuthorizedContext(
          clientBackendPrompt(),
          authorizedContextOf(configure, initialState),
        ),
        tools: restaurantToolDefinitions(),
        reasoningEffort: settings.reasoningEffort,
        maxOutputTokens: settings.maxOutputTokens,
        callTool,
      }),
  }
}
