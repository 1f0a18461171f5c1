// The recorder's side of a real-time frame (RecordingSync, src/phases/engine/media-clock.ts): the HTTP answers the
// recording took since the previous frame get, before the next one goes out, the two turns its replay gives them
// (replay-clock.ts's synchronized). What an answer sets going (the SDK's parsing, then a tool the backend calls,
// which the tool runtime starts on a later turn) then lands before the same frame live and in the replay, whatever
// the machine's load: the recording's tool completions, and the waits a fault starts, are dated as replayed.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RecordingSync } from '../phases/engine/media-clock.ts'

export class AnswerTurns implements RecordingSync {
  #taken = 0
  #synchronized = 0

  /** The recording took an HTTP answer whole, or its request ended without one (the client reacts either way). */
  answerTaken(): void {
    this.#taken += 1
  }

  synchronized(): Promise<void> | null {
    return this.#taken === this.#synchronized ? null : this.#turns()
  }

  async #turns(): Promise<void> {
    // An answer taken during the turns gets its own two.
    while (this.#synchronized < this.#taken) {
      const taken = this.#taken
      await nextTurn()
      await nextTurn()
      this.#synchronized = taken
    }
  }
}
