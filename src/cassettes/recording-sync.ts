// The recorder's side of a real-time frame (RecordingSync, src/phases/engine/media-clock.ts): every HTTP request
// that ended on the client since the previous frame (its answer taken whole, its connection failed, or the client
// gave up on it) gets, before the next frame goes out, the two turns of the event loop its replay gives it
// (replay-clock.ts's synchronized). What the end sets going (the SDK's parsing, then a tool the backend calls,
// which the tool runtime starts on a later turn) then lands before the same frame live and in the replay, however
// late the frame is: the recording dates its tool completions, and the waits a fault starts, as the replay does.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RecordingSync } from '../phases/engine/media-clock.ts'

export class RequestEndTurns implements RecordingSync {
  #ended = 0
  #synchronized = 0

  /** One of the recording's HTTP requests ended on the client. */
  requestEnded(): void {
    this.#ended += 1
  }

  synchronized(): Promise<void> | null {
    return this.#ended === this.#synchronized ? null : this.#turns()
  }

  async #turns(): Promise<void> {
    // A request that ends during the turns gets its own two, as in the replay.
    while (this.#synchronized < this.#ended) {
      const ended = this.#ended
      await nextTurn()
      await nextTurn()
      this.#synchronized = ended
    }
  }
}
