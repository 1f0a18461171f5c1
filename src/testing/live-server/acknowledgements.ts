// The short acknowledgement the service speaks after `session.delegation.created` ("One moment."), so a
// caller is not left in silence while delegated work runs. The SDK's `acknowledgement_delay_ms` (default 0:
// request it at once) is applied on the received-audio clock; until it elapses the acknowledgement is
// pending, and any commentary or thinking appended to the session cancels every pending one, whichever
// delegation it belonged to. Once requested, the acknowledgement is speech like any other and is not
// withdrawn.
//
// One modelling choice of ours: a Responses delegation whose answer the voice model starts to speak also
// drops its own pending acknowledgement (acknowledging work that is already answered would be odd, and
// Responses delegation has no commentary or thinking that could cancel it).
import type { AudioClockTimeline } from './timeline.ts'

/** What the offline voice model says unless the session script gives its own words. */
export const DEFAULT_ACKNOWLEDGEMENT = 'One moment.'

export interface AcknowledgementDeps {
  timeline: AudioClockTimeline
  /** The words; from the session script, else DEFAULT_ACKNOWLEDGEMENT. */
  text: string
  /** Makes the voice model say `text`, not before `notBeforeMs`. */
  speak: (text: string, notBeforeMs: number) => void
}

export class DelegationAcknowledgements {
  readonly #deps: AcknowledgementDeps
  /** Delegation ids whose acknowledgement was not requested yet. */
  readonly #pending = new Set<string>()

  constructor(deps: AcknowledgementDeps) {
    this.#deps = deps
  }

  /** A delegation was announced at `atMs`; its acknowledgement is requested `delayMs` later unless cancelled. */
  delegationCreated(delegationId: string, atMs: number, delayMs: number): void {
    const { timeline, text, speak } = this.#deps
    const dueMs = atMs + delayMs
    this.#pending.add(delegationId)
    timeline.schedule(dueMs, 'listening', () => {
      if (this.#pending.delete(delegationId)) speak(text, dueMs)
    })
  }

  /** Commentary or thinking was appended: no pending acknowledgement is spoken any more. */
  cancelAll(): void {
    this.#pending.clear()
  }

  /** The delegation's own answer is being spoken; its acknowledgement, if still pending, is dropped. */
  answered(delegationId: string): void {
    this.#pending.delete(delegationId)
  }

  get pendingCount(): number {
    return this.#pending.size
  }
}
