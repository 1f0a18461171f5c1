// The turns of the event loop that the end of an HTTP request is owed before the next audio frame goes out, in a
// recording (the real-time media clock asks: RecordingSync, src/phases/engine/media-clock.ts) and in its replay
// (replay-clock.ts's synchronized), one rule for both. Every request that ended on the client since the previous
// frame (its answer taken whole, its connection failed, or the client gave up on it) gets two turns: what the end
// sets going (the SDK's parsing, then a tool the backend calls, which the tool runtime starts on a later turn)
// then lands before the same frame live and in the replay, however late the live frame is, so the recording dates
// its tool completions, and the waits a fault starts, as the replay does. A request that ends during the turns
// gets two of its own.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RecordingSync } from '../phases/engine/media-clock.ts'

export class RequestEndTurns implements RecordingSync {
  #ended = 0
  #synchronized = 0

  /** One of the execution's HTTP requests ended on the client. */
  requestEnded(): void {
    this.#ended += 1
  }

  /** null when every request that ended had its turns; else resolves once they (and any that end meanwhile) have. */
  synchronized(): Promise<void> | null {
    return this.#ended === this.#synchronized ? null : this.#turns()
  }

  async #turns(): Promise<void> {
    while (this.#synchronized < this.#ended) {
      const ended = this.#ended
      await nextTurn()
      await nextTurn()
      this.#synchronized = ended
    }
  }
}
