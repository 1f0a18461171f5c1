// The client-delegation endpoint contract (shared/spec/client-endpoint.md §3–§4) as zod schemas, both
// directions. The reference service validates what it receives with these; the evaluator's remote connector
// imports the same module, so the two sides cannot drift apart.
export {
  type ConnectorMessage,
  connectorMessageSchema,
  type HistoryItem,
  historyItemSchema,
  type LiveEventMessage,
  liveEventMessageSchema,
  MAX_INITIAL_ITEMS,
  type SessionConfigure,
  sessionConfigureSchema,
} from './connector-messages.ts'
export { frameByteLength, frameObject, frameText, MAX_FRAME_DEPTH } from './frames.ts'
export {
  type ClientDelegationCreated,
  FORWARDED_LIVE_EVENT_TYPES,
  type ForwardedLiveEvent,
  type ForwardedLiveEventType,
  forwardedLiveEventSchema,
  isForwardedLiveEventType,
  MAX_DELEGATION_ID_LENGTH,
} from './live-events.ts'
export {
  type AssistantEvent,
  type AssistantInnerEvent,
  assistantEventSchema,
  assistantInnerEventSchemaFor,
  BACKEND_WORK_FAILED,
  backendErrorEventSchema,
  delegationCompletedEventSchema,
  handoffEventSchema,
  type LiveSend,
  liveSendSchema,
  progressEventSchema,
  SESSION_STOPPED_MESSAGE,
  type ServiceError,
  type ServiceMessage,
  type SessionErrorCode,
  type SessionReady,
  serviceErrorSchema,
  serviceMessageSchema,
  serviceSessionClosedSchema,
  sessionErrorCodeSchema,
  sessionReadySchema,
  toolCalledEventSchema,
  toolCompletedEventSchema,
  toolFailedEventSchema,
} from './service-messages.ts'
