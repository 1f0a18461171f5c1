// GPT-Live sessions on top of openai's LiveWS: endpoint security, the start/started handshake, paced audio out,
// a stamped ordered event log, client events with event_id correlation, and exactly one terminal outcome.
export {
  DEFAULT_OPENAI_BASE_URL,
  isLoopbackHost,
  type LiveEndpointSettings,
  type LiveEndpointSettingsInput,
  liveEndpointSettingsSchema,
  type ResolvedLiveEndpoint,
  resolveLiveEndpoint,
} from './endpoint.ts'
export { type LiveErrorKind, LiveSessionError, type LiveSessionStage } from './errors.ts'
export { type LiveEventListener, LiveEventLog } from './event-log.ts'
export {
  type ClientEvent,
  type ClientEventOf,
  describeMalformedServerEvent,
  type ErrorEvent,
  type ReceivedLiveEvent,
  type SendableClientEvent,
  type ServerEvent,
  type ServerEventOf,
  type ServerEventType,
  type SessionClosedEvent,
  type SessionConfig,
  type SessionStartedEvent,
} from './events.ts'
export type {
  LiveSessionClosed,
  LiveSessionFailed,
  LiveSessionOutcome,
  LiveSessionShutDown,
} from './outcome.ts'
export {
  FATAL_SERVER_ERROR_CODES,
  LiveSession,
  type LiveSessionOptions,
  type SentClientEvent,
  type SentEventListener,
  type SentLiveEvent,
  usesTwoByteSamples,
} from './session.ts'
export { type SessionTap, sessionTaps, type TappedSession } from './session-taps.ts'
