// The relay between the two sessions on one media clock. Every tick the clock asks each stream for its next
// chunk and sends both in the same slot (paired sends):
// - the assistant hears the caller's voice as it arrived, passed frame by frame through the run's acoustic
//   preset; the timeline's caller channel records exactly that processed audio;
// - the caller hears the assistant's voice as it arrived; the timeline's assistant channel records that.
// So the stereo recording is what each side actually heard. Voice activity is judged on the clean caller voice
// (noise is not speech) and on the assistant's relayed voice. How late each frame's paired sends went out (the
// relay lateness) is the media clock's own measure (MediaClock.frameLateness): one definition for every phase.
import type { RealismProcessor } from '../../../audio/effects/index.ts'
import type { SessionFaults } from '../../../faults/session.ts'
import { DownlinkFaults, UplinkLoss } from '../../../faults/transport.ts'
import type { SessionTimeline } from '../../../observability/timeline.ts'
import type { ClockedStream } from '../../engine/media-clock.ts'
import type { AssistantListener } from '../offline-caller.ts'
import { SpeechRelay } from '../speech-relay.ts'
import { TrackActivity } from './track-activity.ts'

export interface RelaySessions {
  assistant: ClockedStream['session']
  caller: ClockedStream['session']
}

export class ConversationRelay {
  /** The caller's voice as received, waiting for the assistant to hear it. */
  readonly fromCaller = new SpeechRelay()
  /** The assistant's voice as received, waiting for the caller to hear it. */
  readonly fromAssistant = new SpeechRelay()
  /** The caller's clean voice, as relayed to the assistant. */
  readonly callerTrack = new TrackActivity()
  /** The assistant's voice, as relayed to the caller. */
  readonly assistantTrack = new TrackActivity()
  readonly #timeline: SessionTimeline
  readonly #preset: RealismProcessor
  readonly #listener: AssistantListener
  /** Under a fault profile: a burst of the caller's voice lost, the assistant's voice cut or stalled. */
  readonly #uplink: UplinkLoss | null
  readonly #downlink: DownlinkFaults | null
  #tickStartMs = 0
  /**
   * Each side's frame, reused from one to the next: the clock hands a chunk to its session (encoded at once) and
   * the timeline copies it, so no one keeps it; a fresh array per frame and stream was garbage 3,200 times a
   * second at 32 real-time calls. Not on the downlink under faults, which holds frames back.
   */
  readonly #frames = { toAssistant: new Int16Array(0), toCaller: new Int16Array(0) }

  constructor(parts: {
    timeline: SessionTimeline
    preset: RealismProcessor
    listener: AssistantListener
    /** The scenario's faults (the line is the harness's own, so transport faults apply here); null: clean. */
    faults?: SessionFaults | null
  }) {
    this.#timeline = parts.timeline
    this.#preset = parts.preset
    this.#listener = parts.listener
    const faults = parts.faults ?? null
    this.#uplink = faults === null ? null : new UplinkLoss(faults)
    this.#downlink = faults === null ? null : new DownlinkFaults(faults)
  }

  /** The call is over: a cut still running is recorded. */
  finish(): void {
    this.#downlink?.finish()
  }

  /** Speech received but not yet heard by the other side (silence waiting in a relay is not speech, §6). */
  get bufferedSpeech(): boolean {
    return this.fromCaller.bufferedSpeech || this.fromAssistant.bufferedSpeech
  }

  /** The two streams in send order: the assistant's input first (it fixes the tick's place), then the caller's. */
  streams(sessions: RelaySessions): ClockedStream[] {
    const assistantInput: ClockedStream = {
      label: 'assistant',
      session: sessions.assistant,
      next: (samples) => {
        this.#tickStartMs = this.#timeline.nowMs()
        const clean = this.fromCaller.take(samples, this.#frame('toAssistant', samples))
        this.callerTrack.hear(this.#tickStartMs, clean)
        // A caller utterance starts on its clean voice; a burst of it may then be lost on the way.
        this.#uplink?.voice(clean, this.#tickStartMs)
        // In place: the relay's chunk is this frame's own, and its voice was judged above (an array per frame
        // less on the real-time path).
        const processed = this.#preset.processInto(clean, clean)
        const heard = this.#uplink === null ? processed : this.#uplink.apply(processed, this.#tickStartMs)
        this.#timeline.callerAudioSent(heard)
        return heard
      },
    }
    const callerInput: ClockedStream = {
      label: 'caller',
      session: sessions.caller,
      next: (samples) => {
        const heard =
          this.#downlink === null
            ? this.fromAssistant.take(samples, this.#frame('toCaller', samples))
            : this.#downlink.take(this.fromAssistant, samples, this.#tickStartMs)
        this.assistantTrack.hear(this.#tickStartMs, heard)
        this.#listener.hear(this.#tickStartMs, heard)
        this.#timeline.assistantAudioReceived(this.#tickStartMs, heard)
        return heard
      },
    }
    return [assistantInput, callerInput]
  }

  /** The side's reusable frame of `samples` (a new one when the length changes). */
  #frame(side: 'toAssistant' | 'toCaller', samples: number): Int16Array {
    if (this.#frames[side].length !== samples) this.#frames[side] = new Int16Array(samples)
    return this.#frames[side]
  }
}
