// The assistant plan: everything the assistant under test is configured with for one scenario, built only
// from the caller-visible input, the architecture's public business facts, its prompts and its tools. The
// evaluator's expectations cannot reach it because the plan never sees the scenario, only its visible view.
import type { FunctionTool, InitialItem } from 'openai/resources/live/live'
import type { AssistantVisibleInput } from '../../scenarios/visible.ts'
import type { AssistantApplication } from '../application.ts'
import { restaurantApplication as clientRestaurant } from '../client/application.ts'
import type { JsonObject } from '../offline-behaviour.ts'
import { restaurantApplication as responsesRestaurant } from '../responses/application.ts'
import { normalizeLiveTools } from '../runtime/live-tools.ts'
import { type AuthorizedContext, authorizedContext, withAuthorizedContext } from './context.ts'
import { estimateRenderedTokens, historyInputItems } from './history.ts'
import { type AssistantModels, parseAssistantModels } from './models.ts'

export type Architecture = 'responses' | 'client'
export const ARCHITECTURES: readonly Architecture[] = ['responses', 'client']

/** GPT-Live's limit on client-supplied instruction tokens (voice instructions). */
export const MAX_INSTRUCTIONS_TOKENS = 16_384

export interface AssistantPlan {
  scenarioId: string
  architecture: Architecture
  models: AssistantModels
  /** The authorized context, as appended to both prompts. */
  context: AuthorizedContext
  /** Voice prompt + authorized context: the GPT-Live `instructions`. */
  voiceInstructions: string
  /**
   * Backend prompt + authorized context. Responses delegation sends it to GPT-Live as the delegated model's
   * instructions; client delegation keeps it in the application for its own backend (never sent to GPT-Live).
   */
  backendInstructions: string
  /** The visible history as startup input items. */
  input: InitialItem[]
  /** Responses delegation: the normalized function tools for the delegated model; client: empty. */
  liveTools: FunctionTool[]
}

/** The bundled example application, in each architecture's own copy. */
const RESTAURANT_APPLICATIONS: Record<Architecture, () => AssistantApplication> = {
  responses: responsesRestaurant,
  client: clientRestaurant,
}

export interface AssistantPlanOptions {
  architecture: Architecture
  /** The application behind the assistant (prompts, tools, facts); default: the restaurant copy of the architecture. */
  application?: AssistantApplication
  /** Model settings; validated here. */
  models: AssistantModels
  /**
   * The application's business facts, private overrides included (the executor's view); the plan keeps only
   * the public part. Default: the architecture's own facts.json.
   */
  facts?: JsonObject
}

export function buildAssistantPlan(
  visible: AssistantVisibleInput,
  options: AssistantPlanOptions,
): AssistantPlan {
  const { architecture } = options
  if (architecture !== 'responses' && architecture !== 'client') {
    throw new Error(
      `Unknown assistant architecture ${JSON.stringify(architecture)}; use "responses" or "client".`,
    )
  }
  const models = parseAssistantModels(options.models)
  const application = options.application ?? RESTAURANT_APPLICATIONS[architecture]()
  const context = authorizedContext(visible, application.publicFacts(options.facts))
  const voiceInstructions = withAuthorizedContext(application.voicePrompt, context)
  const instructionTokens = estimateRenderedTokens(voiceInstructions)
  if (instructionTokens > MAX_INSTRUCTIONS_TOKENS) {
    throw new Error(
      `Scenario ${visible.scenarioId}: the voice instructions with the authorized context come to about ` +
        `${instructionTokens} tokens; GPT-Live accepts at most ${MAX_INSTRUCTIONS_TOKENS}. Reduce ` +
        'application.initial_state or input.context.summary.',
    )
  }
  return {
    scenarioId: visible.scenarioId,
    architecture,
    models,
    context,
    voiceInstructions,
    backendInstructions: withAuthorizedContext(application.backendPrompt, context),
    input: historyInputItems(visible.scenarioId, visible.context?.history ?? []),
    // Client delegation keeps its tools in the application; only Responses delegation hands them to GPT-Live.
    liveTools: architecture === 'responses' ? normalizeLiveTools([...application.tools]) : [],
  }
}
