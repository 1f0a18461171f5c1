// The voice model keeps a waiting caller informed: while a delegation's answer has not come, every
// PROGRESS_INTERVAL_MS of session time it says the assistant's progress line (OfflineBehaviour.progressUpdate), at
// most MAX_PROGRESS_LINES times, as a live voice model may fill a long wait. Without that line in the behaviour it stays silent. A delegation
// stops being waited for once its answer is spoken (Responses), its commentary arrives (client), or its backend
// failed. Offline, a delegation is only pending this long when its backend is slow or stalled (a fault profile).
import type { AudioClockTimeline } from './timeline.ts'

/** Session time of waiting before the first progress line, and between two. */
export const PROGRESS_INTERVAL_MS = 2_500
/** Progress lines per delegation at most: a voice model reassures, it does not loop. */
export const MAX_PROGRESS_LINES = 2

export interface ProgressDeps {
  timeline: AudioClockTimeline
  /** The assistant's progress line; undefined: the voice model says nothing while it waits. */
  line: (() => string) | undefined
  speak: (text: string, notBeforeMs: number) => void
}

export class DelegationProgress {
  readonly #deps: ProgressDeps
  readonly #waiting = new Set<string>()

  constructor(deps: ProgressDeps) {
    this.#deps = deps
  }

  /** A delegation began at `atMs`: its progress lines are due from then on until it is answered. */
  delegationCreated(delegationId: string, atMs: number): void {
    if (this.#deps.line === undefined) return
    this.#waiting.add(delegationId)
    this.#schedule(delegationId, atMs + PROGRESS_INTERVAL_MS, MAX_PROGRESS_LINES)
  }

  /** The delegation's answer came (or its backend failed): no more progress lines for it. */
  answered(delegationId: string): void {
    this.#waiting.delete(delegationId)
  }

  #schedule(delegationId: string, dueMs: number, left: number): void {
    const { timeline, line, speak } = this.#deps
    timeline.schedule(dueMs, 'listening', () => {
      if (!this.#waiting.has(delegationId) || line === undefined) return
      speak(line(), dueMs)
      if (left > 1) this.#schedule(delegationId, dueMs + PROGRESS_INTERVAL_MS, left - 1)
      else this.#waiting.delete(delegationId)
    })
  }
}
