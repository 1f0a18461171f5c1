// The seam of the dress-rehearsal server: players. Every session of a live run arrives with the same API key,
// so the server tells them apart by what they are configured with. A session player is chosen from the
// session's `session.start` configuration (its instructions, its delegation); a Responses player from the
// request (its instructions, its text format). The first player that recognises a session or a request plays it;
// each phase adds its own (the single-turn assistant here; RUN's caller, observer and caller backend beside it).
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import type { ParsedSessionConfig } from '../live-server/session-config-schema.ts'
import type { DecisionsRequest, ScriptedDecision } from '../responses-server/decisions-route.ts'
import type { ScriptedFault } from '../responses-server/faults.ts'
import type { ResponsesRequest, ScriptedResponse } from '../responses-server/responses-route.ts'
import type { Listening } from './caller-listener.ts'

/** A session's voice, for a player whose voice also speaks on its own initiative (director.ts `say`). */
export interface SessionVoice {
  say(text: string): void
}

/** A session a player plays that takes turns of its own: its behaviour, and what it is told as the call goes. */
export interface PlayedSession {
  behaviour: OfflineBehaviour
  /** Each utterance it heard, just before the session acts on it. */
  heard(utterance: HeardUtterance): void
  /** After each chunk of audio it received: what it hears now (talking or quiet, since when). */
  listening(now: Listening): void
  /** It decided to say `text` (its commentary opening too). */
  spoke(text: string): void
  /** One of its utterances stopped going out (finished, or cut short by a yield). */
  stoppedSpeaking(interval: { startMs: number; endMs: number }): void
}

export interface SessionPlayer {
  /** Names the player in messages. */
  readonly name: string
  /** The voice behaviour for a session configured with `config`, or null when the session is not its own. */
  behaviourFor(config: ParsedSessionConfig): OfflineBehaviour | null
  /**
   * Optional, asked before behaviourFor: a session of its own that also takes turns on its own initiative (RUN's
   * caller barges in, and goes on after its own backchannel), with the session's voice; null when not its own.
   */
  play?(config: ParsedSessionConfig, voice: SessionVoice): PlayedSession | null
}

export type ResponsesAnswer = ScriptedResponse | ScriptedFault

export interface ResponsesPlayer {
  readonly name: string
  /**
   * The answer to a validated `POST /v1/responses`, or null when the request is not its own. A string says why
   * the request is its own but cannot be answered (the server replies 400 with it).
   */
  answer(
    request: ResponsesRequest,
  ): ResponsesAnswer | string | null | Promise<ResponsesAnswer | string | null>
}

export interface DecisionsPlayer {
  readonly name: string
  answer(request: DecisionsRequest): ScriptedDecision | null
}

/** The players of one rehearsal server, in the order they are asked. */
export interface Cast {
  sessions: SessionPlayer[]
  responses: ResponsesPlayer[]
  decisions: DecisionsPlayer[]
}
