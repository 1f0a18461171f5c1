// The harness's side of a replay on the virtual media clock (src/phases/engine/media-clock.ts): what the clock asks
// before each frame, and the HTTP answers taken whole on their way to the openai client that asked.
// - roundTripNeeded: a round trip costs a message each way per session and frame; it is needed only where the
//   recording had something between this session's previous frame and its next one (a frame received or sent
//   other than audio, an HTTP request or answer, on any channel), or the schedule still owes something from before.
//   Everywhere else the recording only streamed audio, and the frame goes out at once.
// - synchronized: every HTTP answer the replay server sent has been taken by its client, and what the client does
//   with it (the SDK's parsing, the harness's reaction) has had its turns; an answer sent meanwhile starts over.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ReplaySync } from '../phases/engine/media-clock.ts'
import type { ReplaySchedule } from './replay-schedule.ts'

export class ReplayClock implements ReplaySync {
  readonly #schedule: ReplaySchedule
  /** Audio frames each recorded session (by its recorded label) was sent now, counted as they go out. */
  readonly #framesSent = new Map<string, number>()
  /** The recorded label each session label (assistant, caller) now stands for. */
  readonly #recordedLabel: (label: string) => string
  #answersSent = 0
  #answersTaken = 0
  #answersSynchronized = 0
  readonly #wakers = new Set<() => void>()

  constructor(schedule: ReplaySchedule, recordedLabel: (label: string) => string) {
    this.#schedule = schedule
    this.#recordedLabel = recordedLabel
  }

  /** A session (recorded label) sent one audio frame. */
  frameSent(recordedLabel: string): void {
    this.#framesSent.set(recordedLabel, (this.#framesSent.get(recordedLabel) ?? 0) + 1)
  }

  /** The replay server sent an HTTP answer. */
  answerSent(): void {
    this.#answersSent += 1
  }

  /** The client took an HTTP answer whole. */
  answerTaken(): void {
    this.#answersTaken += 1
    for (const wake of this.#wakers) wake()
  }

  roundTripNeeded(label: string): boolean {
    const recorded = this.#recordedLabel(label)
    return !this.#schedule.quietBeforeFrame(recorded, this.#framesSent.get(recorded) ?? 0)
  }

  async synchronized(): Promise<void> {
    while (this.#answersTaken < this.#answersSent || this.#answersSynchronized < this.#answersSent) {
      while (this.#answersTaken < this.#answersSent) {
        await new Promise<void>((wake) => {
          const waker = () => {
            this.#wakers.delete(waker)
            wake()
          }
          this.#wakers.add(waker)
        })
      }
      const sent = this.#answersSent
      await nextTurn()
      await nextTurn()
      if (this.#answersSent === sent) this.#answersSynchronized = sent
    }
  }
}
