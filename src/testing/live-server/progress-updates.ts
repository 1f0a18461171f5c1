// The voice model keeps a waiting caller informed: while a delegation's answer has not come, once it has said
// nothing for PROGRESS_PAUSE_MS of session time (after its acknowledgement, after its last progress line) it says
// the assistant's progress line for that call (OfflineBehaviour.progressUpdate), at most MAX_PROGRESS_LINES times,
// as a live voice model fills a long wait. Paced from the end of its own speech, not from the delegation's start:
// "One moment." and then a second and a half of silence is a caller left hanging, however reassuring the line
// that follows. A behaviour without the line, or whose line for the call is null, waits in silence. A delegation
// stops being waited for once its answer is spoken (Responses), its commentary arrives (client), or its backend
// failed. Offline, a delegation is only pending this long when its backend is slow or stalled (a fault profile).
import type { InferredToolCall } from '../../assistants/offline-behaviour.ts'
import type { SpokenInterval } from './speech.ts'
import type { AudioClockTimeline } from './timeline.ts'

/**
 * Silence the voice model leaves before it says where things stand: longer than the pause between two remarks
 * (speech.ts UTTERANCE_GAP_MS, 600 ms), shorter than a second, the silence a caller starts to wonder at.
 */
export const PROGRESS_PAUSE_MS = 700
/** Progress lines per delegation at most: a voice model reassures, it does not loop. */
export const MAX_PROGRESS_LINES = 2

export interface ProgressDeps {
  timeline: AudioClockTimeline
  /** The assistant's progress line for a delegated call; undefined or null: it says nothing while it waits. */
  line: ((call: InferredToolCall) => string | null) | undefined
  speak: (text: string, notBeforeMs: number) => SpokenInterval
  /** Until when the voice model is speaking or has speech queued (null before it first spoke). */
  busyUntilMs: () => number | null
}

export class DelegationProgress {
  readonly #deps: ProgressDeps
  readonly #waiting = new Set<string>()

  constructor(deps: ProgressDeps) {
    this.#deps = deps
  }

  /** A delegation of `call` began at `atMs`: its progress lines are due from then on until it is answered. */
  delegationCreated(delegationId: string, atMs: number, call: InferredToolCall): void {
    const text = this.#deps.line?.(call) ?? null
    if (text === null) return
    this.#waiting.add(delegationId)
    this.#schedule(delegationId, text, atMs + PROGRESS_PAUSE_MS, MAX_PROGRESS_LINES)
  }

  /** The delegation's answer came (or its backend failed): no more progress lines for it. */
  answered(delegationId: string): void {
    this.#waiting.delete(delegationId)
  }

  #schedule(delegationId: string, text: string, dueMs: number, left: number): void {
    const { timeline, speak, busyUntilMs } = this.#deps
    timeline.schedule(dueMs, 'listening', () => {
      if (!this.#waiting.has(delegationId)) return
      // Still speaking (the acknowledgement, an earlier line), or not quiet long enough: look again once it is.
      const quietFrom = busyUntilMs()
      if (quietFrom !== null && quietFrom + PROGRESS_PAUSE_MS > dueMs) {
        this.#schedule(delegationId, text, quietFrom + PROGRESS_PAUSE_MS, left)
        return
      }
      const spoken = speak(text, dueMs)
      if (left > 1) this.#schedule(delegationId, text, spoken.endMs + PROGRESS_PAUSE_MS, left - 1)
      else this.#waiting.delete(delegationId)
    })
  }
}
