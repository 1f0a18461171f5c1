// The frontend of the assistant under test: its plan (what it may see) and its session.start.
export {
  AUTHORIZED_CONTEXT_HEADING,
  type AuthorizedContext,
  authorizedContext,
  renderPythonJson,
  withAuthorizedContext,
} from './context.ts'
export {
  BYTES_PER_TOKEN_ESTIMATE,
  estimateRenderedTokens,
  historyInputItems,
  MAX_HISTORY_MESSAGES,
  MAX_HISTORY_RENDERED_TOKENS,
  MESSAGE_FRAMING_TOKENS,
} from './history.ts'
export {
  type AssistantModels,
  assistantModelsFromSettings,
  assistantModelsSchema,
  parseAssistantModels,
} from './models.ts'
export {
  ARCHITECTURES,
  type Architecture,
  type AssistantPlan,
  type AssistantPlanOptions,
  buildAssistantPlan,
  MAX_INSTRUCTIONS_TOKENS,
} from './plan.ts'
export { buildSessionStart, SESSION_AUDIO_FORMAT, type SessionStartOptions } from './session-start.ts'
