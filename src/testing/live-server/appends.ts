// `session.instructions.append`, `session.thinking.append` and `session.commentary.append`: validated like
// the service, acknowledged with `session.*.appended` only once the received-audio clock reaches the
// estimated end of the injection, and answered with errors if the session closes first. Commentary is
// speakable: once injected, the voice model says it.

import { estimatedTokens } from '../estimated-usage.ts'
import type { ParsedClientEventOf } from './client-events-schema.ts'
import { MAX_APPEND_TOKENS } from './client-events-schema.ts'
import type { OutboundServerEvent } from './events.ts'
import { ERROR_CODES, type ProtocolError, protocolError } from './protocol-errors.ts'
import type { AudioClockTimeline } from './timeline.ts'

/** Our estimate of how long injecting context takes on the session timeline: 4 ms per estimated token. */
export const INJECTION_MS_PER_TOKEN = 4

export type AppendEvent = ParsedClientEventOf<
  'session.instructions.append' | 'session.thinking.append' | 'session.commentary.append'
>

const APPENDED_TYPE = {
  'session.instructions.append': 'session.instructions.appended',
  'session.thinking.append': 'session.thinking.appended',
  'session.commentary.append': 'session.commentary.appended',
} as const

interface PendingAck {
  clientEventId: string | undefined
  type: AppendEvent['type']
}

export interface AppendsDeps {
  timeline: AudioClockTimeline
  send: (event: OutboundServerEvent) => void
  sendError: (error: ProtocolError, clientEventId: string | undefined) => void
  /** Extra received-audio ms before each ack (fault injection). */
  ackDelayMs: number
  delegationMode: () => 'client' | 'responses'
  isKnownClientDelegation: (id: string) => boolean
  speak: (text: string, notBeforeMs: number) => void
  /** Appends that may wait for their ack at once (limits.ts); a stalled audio clock cannot pile up more. */
  maxPending: number
}

export class ContextAppends {
  readonly #deps: AppendsDeps
  readonly #pending = new Set<PendingAck>()

  constructor(deps: AppendsDeps) {
    this.#deps = deps
  }

  /** Validates the append; on success schedules its ack (and, for commentary, the speech). */
  accept(event: AppendEvent, clientEventId: string | undefined): ProtocolError | null {
    const problem = this.#validate(event)
    if (problem !== null) return problem
    const { timeline, send } = this.#deps
    const startMs = timeline.nowMs
    const endMs = startMs + estimatedTokens(event.content) * INJECTION_MS_PER_TOKEN
    const pending: PendingAck = { clientEventId, type: event.type }
    this.#pending.add(pending)
    timeline.schedule(endMs + this.#deps.ackDelayMs, 'listening', () => {
      if (!this.#pending.delete(pending)) return
      send({
        type: APPENDED_TYPE[event.type],
        start_ms: startMs,
        end_ms: endMs,
        ...(clientEventId === undefined ? {} : { client_event_id: clientEventId }),
      })
      if (event.type === 'session.commentary.append') this.#deps.speak(event.content, endMs)
    })
    return null
  }

  /** At close every unacknowledged append gets an error instead of its ack. */
  failPending(): void {
    for (const pending of this.#pending) {
      this.#deps.sendError(
        protocolError(
          ERROR_CODES.sessionClosing,
          `The session closed before the ${pending.type} was added to the timeline; it was not applied.`,
        ),
        pending.clientEventId,
      )
    }
    this.#pending.clear()
  }

  #validate(event: AppendEvent): ProtocolError | null {
    if (this.#pending.size >= this.#deps.maxPending) {
      return protocolError(
        ERROR_CODES.tooManyPendingAppends,
        `${this.#pending.size} context appends already wait for the audio clock; keep streaming input audio ` +
          'so they are acknowledged before appending more.',
      )
    }
    if (event.content.trim() === '') {
      return protocolError(ERROR_CODES.invalidValue, 'content must be a non-empty string.', 'content')
    }
    if (estimatedTokens(event.content) > MAX_APPEND_TOKENS) {
      return protocolError(
        ERROR_CODES.invalidValue,
        `content exceeds ${MAX_APPEND_TOKENS} tokens.`,
        'content',
      )
    }
    const id = event.delegation_id
    if (id === null) return null
    if (this.#deps.delegationMode() === 'responses') {
      return protocolError(
        ERROR_CODES.invalidValue,
        'Non-null delegation_id values are not accepted with Responses delegation; use null.',
        'delegation_id',
      )
    }
    if (!this.#deps.isKnownClientDelegation(id)) {
      return protocolError(ERROR_CODES.invalidValue, `Unknown client delegation id '${id}'.`, 'delegation_id')
    }
    return null
  }
}
