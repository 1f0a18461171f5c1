// The offline GPT-Live server: a strict, deterministic stand-in for the GPT-Live WebSocket service, used by
// offline runs and tests through the same openai LiveWS client as live runs.

export { DEFAULT_ACKNOWLEDGEMENT } from './acknowledgements.ts'
export { INJECTION_MS_PER_TOKEN } from './appends.ts'
export { BACKEND_RESPONSE_MS } from './delegation-responses.ts'
export type { DirectedSession, DirectedStart, SessionDirector } from './director.ts'
export { RESPONSE_SILENCE_MS } from './hearing.ts'
export {
  DEFAULT_LIMITS,
  LIMIT_CLOSE,
  LIMIT_ERROR_CODES,
  type OfflineServerLimits,
  SEND_BUFFER_EXCEEDED_REASON,
} from './limits.ts'
export { ERROR_CODES } from './protocol-errors.ts'
export type { FaultPlan, HeardUtterance, OfflineSessionScript } from './script.ts'
export {
  LIVE_SESSIONS_PATH,
  type OfflineLiveServer,
  type OfflineLiveServerOptions,
  type OfflineServerStats,
  startOfflineLiveServer,
} from './server.ts'
export { USAGE_INTERVAL_MS } from './session.ts'
export { OUTPUT_CHUNK_MS, UTTERANCE_GAP_MS } from './speech.ts'
