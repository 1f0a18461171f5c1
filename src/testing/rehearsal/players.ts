// The seam of the dress-rehearsal server: players. Every session of a live run arrives with the same API key,
// so the server tells them apart by what they are configured with. A session player is chosen from the
// session's `session.start` configuration (its instructions, its delegation); a Responses player from the
// request (its instructions, its text format). The first player that recognises a session or a request plays it;
// each phase adds its own (the single-turn assistant here; RUN's caller, observer and caller backend beside it).
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import type { ParsedSessionConfig } from '../live-server/session-config-schema.ts'
import type { DecisionsRequest, ScriptedDecision } from '../responses-server/decisions-route.ts'
import type { ScriptedFault } from '../responses-server/faults.ts'
import type { ResponsesRequest, ScriptedResponse } from '../responses-server/responses-route.ts'

export interface SessionPlayer {
  /** Names the player in messages. */
  readonly name: string
  /** The voice behaviour for a session configured with `config`, or null when the session is not its own. */
  behaviourFor(config: ParsedSessionConfig): OfflineBehaviour | null
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
