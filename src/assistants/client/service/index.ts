// The reference client-delegation service (`live-evals client-assistant`): the application endpoint of
// shared/spec/client-endpoint.md on loopback, with the restaurant application's client copy inside. The wire
// contract itself is ./protocol (imported by the evaluator's remote connector too).
export {
  type BackendContext,
  type OpenAiBackendSettings,
  offlineRestaurantApplication,
  openAiRestaurantApplication,
  restaurantTools,
  type ServiceApplication,
} from './application.ts'
export { type BackendChoice, chooseReferenceApplication } from './backend-choice.ts'
export {
  ClientLimitError,
  ClientProtocolError,
  ClientSessionTimeoutError,
  ServiceSessionError,
} from './errors.ts'
export { checkUpgradeCredentials, type UpgradeRefusal } from './handshake.ts'
export {
  DEFAULT_SERVICE_LIMITS,
  LIMITS_MESSAGE,
  resolveServiceLimits,
  type ServiceLimits,
  ServiceLimitsError,
  serviceLimitsSchema,
} from './limits.ts'
export {
  AllowedOriginError,
  ORIGIN_ENTRY_MESSAGE,
  parseAllowedOrigin,
  parseAllowedOrigins,
} from './origins.ts'
export {
  ASSISTANT_PATH,
  assertLoopbackHost,
  type ClientAssistantService,
  ClientAssistantServiceError,
  type ClientAssistantServiceOptions,
  HEALTH_BODY,
  HEALTH_PATH,
  LOOPBACK_HOSTS,
  LOOPBACK_ONLY_MESSAGE,
  startClientAssistantService,
} from './service.ts'
export {
  AssistantTokenError,
  checkAssistantToken,
  constantTimeEqual,
  TOKEN_REUSE_MESSAGE,
  TOKEN_SHAPE_MESSAGE,
  TOKEN_VARIABLE,
} from './token.ts'
