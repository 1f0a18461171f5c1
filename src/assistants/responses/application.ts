// Juniper Table, the responses backend's own copy, as an assistant application (the seat a user's agent uses).
import type { AssistantApplication } from '../application.ts'
import { RestaurantOfflineBehaviour } from './offline/restaurant-offline-behaviour.ts'
import { responsesBackendPrompt, responsesVoicePrompt } from './prompts/prompts.ts'
import { publicBusinessFacts, restaurantToolDefinitions } from './tools/resources.ts'
import { RestaurantTools } from './tools/restaurant-tools.ts'

export function restaurantApplication(): AssistantApplication {
  return {
    name: 'juniper-table',
    voicePrompt: responsesVoicePrompt(),
    backendPrompt: responsesBackendPrompt(),
    tools: restaurantToolDefinitions(),
    publicFacts: (facts) => (facts === undefined ? publicBusinessFacts() : publicBusinessFacts(facts)),
    createExecutor: (options) => new RestaurantTools(options),
    offlineBehaviour: (context) => new RestaurantOfflineBehaviour(context),
  }
}
