// Client delegation in process: the controller that answers GPT-Live's client delegations, the application's
// transcript memory it hands to the backend, and the backends (offline, OpenAI Responses reference).
export {
  type ApplicationBackend,
  type ApplicationToolCallback,
  type BackendRunOptions,
  DELEGATED_TASK,
  type DelegationHandoff,
  delegationHandoffSchema,
  type EmitObservation,
  handoffPrompt,
  NO_NEW_TRANSCRIPT,
  type ObservationEvent,
} from '../backend/application-backend.ts'
export {
  OfflineApplicationBackend,
  type OfflineBackendOptions,
  type RestaurantOfflineBackendOptions,
  restaurantOfflineBackend,
} from '../backend/offline-backend.ts'
export {
  MAX_TOOL_ROUNDS,
  OpenAiBackendError,
  OpenAiReferenceBackend,
  type OpenAiReferenceBackendOptions,
} from '../backend/openai-backend.ts'
export { backendApiKey, backendOpenAiClient } from '../backend/openai-client.ts'
export { callToolObserved, runtimeToolCallback } from '../backend/tool-callback.ts'
export {
  BlankAnswerError,
  ClientDelegationController,
  type ClientDelegationControllerOptions,
  ClientDelegationError,
  type CommentaryRecord,
  CommentaryRejectedError,
  DelegationDeadlineError,
  LiveUnavailableError,
} from './client-delegation-controller.ts'
export { MAX_COMMENTARY_CHUNK_BYTES, splitUtf8Chunks } from './commentary-chunks.ts'
export { parseSrt, renderSrt, type SrtEntry, srtTimestamp } from './srt.ts'
export { TranscriptMemory, type TranscriptSegment } from './transcript-memory.ts'
