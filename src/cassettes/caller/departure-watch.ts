// Where a conversation with a replayed caller left its recording, found while it runs (RUN): the recorded caller
// speaks on its original clock, so at each of its utterance onsets the assistant turn that just ended is compared
// with the recorded one (turns.ts). The first that differs in meaning is the departure: from that onset on, the
// recorded caller is silenced (its later lines answer the recorded assistant, not this one), so what the call
// observes afterwards is only the assistant's own reaction to input that was comparable. The last turn, which no
// onset ends, is compared when the call is over.
//
// Without a departure the recorded caller is done once it has played out: its last line has been played and the
// call has passed the recording's own end. Its last line alone is not enough: the recording's ending (the
// observer's verdict on the goodbye, which comes after the assistant's reply and the observer's latency) came
// later, and a replay that follows the recording should end on that same signal, not on the played-out one.
import type { TappedSession } from '../../live/index.ts'
import type { ReplayedCallerSignal } from '../../phases/run/drain.ts'
import type { CallerReplayDeparture } from '../../reporting/extensions/caller-replay.ts'
import { CallerOnsets, type RecordedTurns, sameMeaning } from './turns.ts'

const AUDIO = 'session.output_audio.delta'
const CAPTION = 'session.output_transcript.delta'
/** The assistant counts as still speaking when its audio arrived this recently. */
const STILL_SPEAKING_MS = 300

export class DepartureWatch {
  readonly #recorded: readonly string[]
  readonly #callerEnd: RecordedTurns['callerEnd']
  readonly #onsets = new CallerOnsets()
  readonly #now: string[] = ['']
  #lastAssistantAudio = Number.NEGATIVE_INFINITY
  /** The recorded time of the latest caller frame the replay played. */
  #playedMs = Number.NEGATIVE_INFINITY
  departure: CallerReplayDeparture | null = null

  constructor(recorded: Pick<RecordedTurns, 'turns' | 'callerEnd'>) {
    this.#recorded = recorded.turns
    this.#callerEnd = recorded.callerEnd
  }

  /** The assistant's live session: what it says is collected turn by turn. */
  listen(session: TappedSession): void {
    session.subscribe(({ event }) => {
      if (event.type === CAPTION) this.#now[this.#now.length - 1] += event.delta
      else if (event.type === AUDIO) this.#lastAssistantAudio = performance.now()
    })
  }

  /** The replay server's view of each recorded caller frame: played, or dropped once the call departed. */
  callerFrame(event: Record<string, unknown>, atMs: number): Record<string, unknown> | null {
    this.#playedMs = Math.max(this.#playedMs, atMs)
    if (event.type !== AUDIO && event.type !== CAPTION) return event
    if (this.departure !== null) return null
    if (event.type === AUDIO && this.#onsets.audio(atMs)) {
      const ending = this.#now.length - 1
      const stillSpeaking = performance.now() - this.#lastAssistantAudio < STILL_SPEAKING_MS
      if (!this.#compare(ending, stillSpeaking, atMs)) return null
      this.#now.push('')
    }
    return event
  }

  /** What the assistant said in `turn`, learnt after the call (WALK: the reply, from the observation). */
  said(turn: number, text: string): void {
    while (this.#now.length <= turn) this.#now.push('')
    this.#now[turn] = this.#now[turn] === '' ? text : `${this.#now[turn]} ${text}`
  }

  /** After the call: the turn no onset ended (the reply to the caller's last line) is compared too. */
  finish(): CallerReplayDeparture | null {
    if (this.departure === null) this.#compare(this.#now.length - 1, false, null)
    return this.departure
  }

  /**
   * Whether the recorded caller is done at the call's media time `nowMs` (the clock its frames were recorded on):
   * silenced, when the call left the recording while it ran; played out, when its last line was played and the
   * recorded call was over by `nowMs`; null while the recording still has something for it to say.
   */
  callerDone(nowMs: number): ReplayedCallerSignal | null {
    if (this.departure !== null && this.departure.caller_silenced_at_ms !== null)
      return 'replayed_caller_silenced'
    const end = this.#callerEnd
    if (end === null || this.#playedMs < end.lastLineMs || nowMs < end.endMs) return null
    return 'replayed_caller_played_out'
  }

  /** The assistant turns said so far (index 0: before the caller first spoke). */
  get turns(): readonly string[] {
    return this.#now
  }

  #compare(turn: number, stillSpeaking: boolean, callerOnsetMs: number | null): boolean {
    const recorded = this.#recorded[turn] ?? ''
    const now = this.#now[turn] ?? ''
    if (sameMeaning(recorded, now, stillSpeaking)) return true
    this.departure = { turn, recorded, now, caller_silenced_at_ms: callerOnsetMs }
    return false
  }
}
