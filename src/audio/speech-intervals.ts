// Turning per-frame speech decisions into intervals, shared by the energy detector (speech-activity.ts) and the
// WebRTC one (voice-activity.ts) so both merge frames the same way: a pause shorter than `minSilenceMs` is bridged
// without extending the interval (ends sit on the last voiced frame), and a burst shorter than `minSpeechMs` is
// dropped. Each detector only says, per frame, whether it may start speech and whether it may keep it going.

export interface SpeechInterval {
  startMs: number
  endMs: number
}

export class SpeechIntervalTracker {
  readonly #minSilenceMs: number
  readonly #minSpeechMs: number
  #speechStartMs: number | null = null
  #lastVoicedEndMs = 0
  readonly #intervals: SpeechInterval[] = []

  constructor(minSilenceMs: number, minSpeechMs: number) {
    this.#minSilenceMs = minSilenceMs
    this.#minSpeechMs = minSpeechMs
  }

  /** Closed intervals so far, in order; the one under way is added when it closes. */
  get intervals(): readonly SpeechInterval[] {
    return this.#intervals
  }

  /** Start of the speech under way once it has lasted minSpeechMs; else null. */
  get speakingSinceMs(): number | null {
    if (this.#speechStartMs === null) return null
    return this.#lastVoicedEndMs - this.#speechStartMs >= this.#minSpeechMs ? this.#speechStartMs : null
  }

  /**
   * One frame, in order. `starts`: loud enough to begin speech; `sustains`: loud enough to continue it (a
   * detector with one threshold passes the same flag twice).
   */
  frame(startMs: number, endMs: number, starts: boolean, sustains: boolean): void {
    if (this.#speechStartMs === null) {
      if (starts) {
        this.#speechStartMs = startMs
        this.#lastVoicedEndMs = endMs
      }
      return
    }
    if (sustains) this.#lastVoicedEndMs = endMs
    else if (endMs - this.#lastVoicedEndMs >= this.#minSilenceMs) this.close()
  }

  /** Ends the speech under way (end of stream, or a long enough pause), keeping it if it was long enough. */
  close(): void {
    if (this.#speechStartMs === null) return
    if (this.#lastVoicedEndMs - this.#speechStartMs >= this.#minSpeechMs) {
      this.#intervals.push({ startMs: this.#speechStartMs, endMs: this.#lastVoicedEndMs })
    }
    this.#speechStartMs = null
  }
}
