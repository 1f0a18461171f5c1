// The harness's side of a replay on the virtual media clock (src/phases/engine/media-clock.ts): what the clock asks
// before each frame, and the HTTP answers taken whole on their way to the openai client that asked.
// - roundTripNeeded: a round trip costs a message each way per session and frame; it is needed only where the
//   recording had something between this session's previous frame and its next one (a frame received or sent
//   other than audio, an HTTP request or answer, on any channel), or the schedule still owes something from before.
//   Everywhere else the recording only streamed audio, and the frame goes out at once.
// - synchronized: every HTTP answer the replay server sent has been taken by its client (or the client gave up on
//   it), and every request that ended on the client since (answered, failed, or given up by the client itself) has
//   had the turns the recording gave it before the same frame (request-end-turns.ts, one rule for both), so what
//   the client does with it (the SDK's parsing, the harness's reaction) lands between the same frames. Answers are
//   known by the id the scope's fetch gives each request (REQUEST_ID_HEADER).
import type { ReplaySync } from '../phases/engine/media-clock.ts'
import type { ReplaySchedule } from './replay-schedule.ts'
import { RequestEndTurns } from './request-end-turns.ts'

/** The header the replay scope's fetch names each request by, so the server's answer and its taking are paired. */
export const REQUEST_ID_HEADER = 'x-live-evals-replay-request'

export class ReplayClock implements ReplaySync {
  readonly #schedule: ReplaySchedule
  /** Audio frames each recorded session (by its recorded label) was sent now, counted as they go out. */
  readonly #framesSent = new Map<string, number>()
  /** The recorded label each session label (assistant, caller) now stands for. */
  readonly #recordedLabel: (label: string) => string
  /** Answers sent and not taken yet, by request id. */
  readonly #outstanding = new Set<string>()
  /** Requests that ended on the client (answered, failed or given up), and the turns they are owed. */
  readonly #requestEnds = new RequestEndTurns()
  #requests = 0
  readonly #wakers = new Set<() => void>()

  constructor(schedule: ReplaySchedule, recordedLabel: (label: string) => string) {
    this.#schedule = schedule
    this.#recordedLabel = recordedLabel
  }

  /** A session (recorded label) sent one audio frame. */
  frameSent(recordedLabel: string): void {
    this.#framesSent.set(recordedLabel, (this.#framesSent.get(recordedLabel) ?? 0) + 1)
  }

  /** A fresh id for one request of the scope's fetch. */
  requestId(): string {
    this.#requests += 1
    return String(this.#requests)
  }

  /** The replay server sent the answer to request `id` (null: a request that came without one). */
  answerSent(id: string | null): void {
    // A request without an id is not taken through the scope's fetch: it counts as ended when answered.
    if (id === null) this.#requestEnds.requestEnded()
    else this.#outstanding.add(id)
  }

  /** Request `id` ended on its client: the answer was taken whole, the request failed, or the client gave up. */
  answerTaken(id: string): void {
    this.#requestEnds.requestEnded()
    this.#outstanding.delete(id)
    for (const wake of this.#wakers) wake()
  }

  roundTripNeeded(label: string): boolean {
    const recorded = this.#recordedLabel(label)
    return !this.#schedule.quietBeforeFrame(recorded, this.#framesSent.get(recorded) ?? 0)
  }

  async synchronized(): Promise<void> {
    for (;;) {
      while (this.#outstanding.size > 0) {
        await new Promise<void>((wake) => {
          const waker = () => {
            this.#wakers.delete(waker)
            wake()
          }
          this.#wakers.add(waker)
        })
      }
      const turns = this.#requestEnds.synchronized()
      // Every answer taken, every end had its turns; an answer sent during the turns is waited for on the next pass.
      if (turns === null) return
      await turns
    }
  }
}
