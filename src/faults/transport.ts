// Audio-transport faults (issue 22), on the line the harness owns between the caller and the assistant:
// - uplink_loss: a burst of the caller's audio never reaches the assistant. Offline, where the server hears
//   through an oracle, the words inside the burst are left out of what it hears and the same window is silenced
//   in the audio sent (UplinkLoss.hear + apply); live, each caller utterance is found by its voice onset on the
//   clean caller track and its burst silenced (UplinkLoss.voice + apply).
// - stream_cut and jitter: the assistant's audio on its way to the caller (RUN's relay, offline and live). Its
//   utterances are found by voice onsets; a cut utterance reaches the caller only up to after_ms, the rest is
//   silence; a jittered one stalls at after_ms for delay_ms (the caller hears silence, then the rest, later).
// The assistant's own track keeps what it said; what the caller heard is what the listener hears.
import { SAMPLE_RATE_HZ, SAMPLES_PER_FRAME } from '../audio/pcm.ts'
import type { AudioRelay } from '../phases/engine/media-clock.ts'
import { isVoicedFrame } from '../phases/run/speech-relay.ts'
import { captionsFor } from '../testing/live-server/speech.ts'
import { FAULT_TARGETS } from './events.ts'
import type { SessionFaults } from './session.ts'

const FRAME_MS = (SAMPLES_PER_FRAME * 1000) / SAMPLE_RATE_HZ
/** Unvoiced audio that ends an utterance: a speaker's pause between sentences, not between words. */
export const UTTERANCE_GAP_MS = 300

const samplesOf = (ms: number) => Math.round((ms * SAMPLE_RATE_HZ) / 1000)

interface Window {
  startMs: number
  endMs: number
}

interface Utterance {
  text: string
  startMs: number
  endMs: number
}

/**
 * A single-turn request as utterances on its own clock: offline, what the oracle hears; live (no oracle), the
 * request's text over the span its speech takes, when known.
 */
export function requestUtterances(request: {
  text: string
  hearing: readonly Utterance[]
  callerSpeech?: readonly { startMs: number; endMs: number }[]
}): Utterance[] {
  if (request.hearing.length > 0) return [...request.hearing]
  const first = request.callerSpeech?.[0]
  const last = request.callerSpeech?.at(-1)
  if (first === undefined || last === undefined || request.text.trim() === '') return []
  return [{ text: request.text, startMs: first.startMs, endMs: last.endMs }]
}

/** Voice onsets of one track, frame by frame: an onset is a voiced frame after UTTERANCE_GAP_MS of no voice. */
class Onsets {
  #quietMs = Number.POSITIVE_INFINITY
  /** Ms of the current utterance heard so far (null outside one). */
  intoMs: number | null = null

  /** Feeds one frame; true when it starts an utterance. */
  frame(voiced: boolean): boolean {
    if (voiced) {
      const onset = this.#quietMs >= UTTERANCE_GAP_MS
      this.#quietMs = 0
      this.intoMs = onset ? 0 : (this.intoMs ?? 0) + FRAME_MS
      return onset
    }
    this.#quietMs += FRAME_MS
    if (this.intoMs !== null) this.intoMs += FRAME_MS
    if (this.#quietMs >= UTTERANCE_GAP_MS) this.intoMs = null
    return false
  }
}

/** A burst of the caller's uplink lost. */
export class UplinkLoss {
  readonly #faults: SessionFaults
  readonly #windows: Window[] = []
  readonly #onsets = new Onsets()

  constructor(faults: SessionFaults) {
    this.#faults = faults
  }

  /**
   * Offline (the oracle): the next caller utterances as the assistant hears them. Each draws its position; a hit
   * leaves out the words whose middle falls in the burst (an utterance with none left is not heard at all), and
   * the burst is silenced in the audio by apply().
   */
  hear(utterances: readonly Utterance[]): Utterance[] {
    const heard: Utterance[] = []
    for (const utterance of utterances) {
      const drawn = this.#faults.nextCallerUtterance()
      if (drawn === null) {
        heard.push(utterance)
        continue
      }
      const startMs = Math.min(utterance.endMs, utterance.startMs + drawn.rule.after_ms)
      const endMs = Math.min(utterance.endMs, startMs + drawn.rule.duration_ms)
      const words = captionsFor(utterance.text, utterance.startMs, utterance.endMs)
      const lost = words.filter((word) => {
        const middle = (word.start_ms + word.end_ms) / 2
        return middle >= startMs && middle < endMs
      })
      const kept = words.filter((word) => !lost.includes(word))
      this.#lose(drawn.index, startMs, endMs, lost.map((word) => word.delta.trim()).join(' '))
      const text = kept
        .map((word) => word.delta)
        .join('')
        .trim()
      if (text !== '') heard.push({ ...utterance, text })
    }
    return heard
  }

  /**
   * Without an oracle (live): the caller's clean voice from `startMs`, frame by frame; at each utterance onset
   * the next position is drawn and a hit schedules its burst.
   */
  voice(audio: Int16Array, startMs: number): void {
    for (let offset = 0; offset < audio.length; offset += SAMPLES_PER_FRAME) {
      const frame = audio.subarray(offset, Math.min(audio.length, offset + SAMPLES_PER_FRAME))
      if (!this.#onsets.frame(isVoicedFrame(frame))) continue
      const drawn = this.#faults.nextCallerUtterance()
      if (drawn === null) continue
      const lossStart = startMs + (offset * 1000) / SAMPLE_RATE_HZ + drawn.rule.after_ms
      this.#lose(drawn.index, lossStart, lossStart + drawn.rule.duration_ms, undefined)
    }
  }

  /** The chunk starting at media time `startMs` with every lost window silenced (a copy when anything changed). */
  apply(chunk: Int16Array, startMs: number): Int16Array {
    const endMs = startMs + (chunk.length * 1000) / SAMPLE_RATE_HZ
    let out: Int16Array | null = null
    for (const window of this.#windows) {
      if (window.endMs <= startMs || window.startMs >= endMs) continue
      out ??= chunk.slice()
      out.fill(0, Math.max(0, samplesOf(window.startMs - startMs)), samplesOf(window.endMs - startMs))
    }
    return out ?? chunk
  }

  #lose(index: number, startMs: number, endMs: number, lostText: string | undefined): void {
    this.#windows.push({ startMs, endMs })
    this.#faults.record({
      kind: 'uplink_loss',
      target: FAULT_TARGETS.uplink,
      index,
      at_ms: startMs,
      duration_ms: endMs - startMs,
      ...(lostText === undefined || lostText === '' ? {} : { lost_text: lostText }),
    })
  }
}

interface DownlinkFault {
  kind: 'stream_cut' | 'jitter'
  index: number
  afterMs: number
  delayMs: number
  /** When a cut took effect (media ms) and how much voice it held back since. */
  atMs: number | null
  cutMs: number
}

/** The assistant's stream to the caller, cut or stalled. */
export class DownlinkFaults {
  readonly #faults: SessionFaults
  readonly #onsets = new Onsets()
  readonly #silence = new Int16Array(SAMPLES_PER_FRAME)
  #current: DownlinkFault | null = null
  #stallFrames = 0

  constructor(faults: SessionFaults) {
    this.#faults = faults
  }

  /** What the caller hears of the next `samples` of the relay, from media time `startMs` (frame by frame). */
  take(relay: AudioRelay, samples: number, startMs: number): Int16Array {
    const out = new Int16Array(samples)
    for (let offset = 0; offset < samples; offset += SAMPLES_PER_FRAME) {
      const size = Math.min(SAMPLES_PER_FRAME, samples - offset)
      out.set(this.#frame(relay, size, startMs + (offset * 1000) / SAMPLE_RATE_HZ), offset)
    }
    return out
  }

  /** The call is over: a cut still running is recorded with what it held back so far. */
  finish(): void {
    this.#close()
  }

  #frame(relay: AudioRelay, size: number, atMs: number): Int16Array {
    if (this.#stallFrames > 0) {
      this.#stallFrames -= 1
      return this.#silence.subarray(0, size)
    }
    const held = this.#held
    this.#held = null
    // A frame held back by a stall goes out first; its voice was already counted.
    if (held !== null) return held
    const frame = relay.take(size)
    const voiced = isVoicedFrame(frame)
    if (this.#onsets.frame(voiced)) this.#startUtterance()
    const fault = this.#current
    const into = this.#onsets.intoMs
    if (into === null) this.#close()
    if (fault === null || into === null || into < fault.afterMs) return frame
    if (fault.kind === 'jitter') {
      // The rest of the utterance arrives late: silence for the stall, then this frame and what follows it.
      this.#faults.record({
        kind: 'jitter',
        target: FAULT_TARGETS.downlink,
        index: fault.index,
        at_ms: atMs,
        delay_ms: fault.delayMs,
      })
      this.#current = null
      this.#held = frame
      this.#stallFrames = Math.max(0, Math.round(fault.delayMs / FRAME_MS) - 1)
      return this.#silence.subarray(0, size)
    }
    fault.atMs ??= atMs
    if (voiced) fault.cutMs += FRAME_MS
    return this.#silence.subarray(0, size)
  }

  #startUtterance(): void {
    this.#close()
    const drawn = this.#faults.nextAssistantUtterance()
    this.#current =
      drawn === null
        ? null
        : {
            kind: drawn.rule.kind,
            index: drawn.index,
            afterMs: drawn.rule.after_ms,
            delayMs: drawn.rule.kind === 'jitter' ? drawn.rule.delay_ms : 0,
            atMs: null,
            cutMs: 0,
          }
  }

  #held: Int16Array | null = null

  #close(): void {
    const fault = this.#current
    this.#current = null
    if (fault === null || fault.kind !== 'stream_cut' || fault.atMs === null) return
    this.#faults.record({
      kind: 'stream_cut',
      target: FAULT_TARGETS.downlink,
      index: fault.index,
      at_ms: fault.atMs,
      duration_ms: fault.cutMs,
    })
  }
}
