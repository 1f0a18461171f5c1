// The dress-rehearsal server: the live code path against local servers (server.ts), with the seam for each
// phase's players (players.ts) and the hearing by content (speech-catalogue.ts, caller-listener.ts).
export { NOT_UNDERSTOOD_ANSWER } from './assistant-players.ts'
export {
  END_OF_UTTERANCE_SILENCE_MS,
  UNINTELLIGIBLE,
  UNRECOGNISED_SILENCE_MS,
} from './caller-listener.ts'
export { SCRIPTED_JUDGMENT_RATIONALE } from './judge-players.ts'
export type { Cast, DecisionsPlayer, ResponsesAnswer, ResponsesPlayer, SessionPlayer } from './players.ts'
export {
  REHEARSAL_API_KEY,
  type RehearsalContext,
  type RehearsalServer,
  type RehearsalServerOptions,
  startRehearsalServer,
} from './server.ts'
export { type KnownSpeech, type Recognised, SpeechCatalogue } from './speech-catalogue.ts'
