// The offline voice model's mouth: turns text into deterministic synthetic speech, sent as output audio
// deltas with matching output transcript deltas, placed on the received-audio timeline. Output is released
// as the caller's audio clock reaches each piece, the way a real-time model speaks while the caller's
// stream (often silence) keeps flowing; speech never overlaps earlier speech, and a separate utterance
// (an answer after an acknowledgement) follows the previous one after a short pause, as a speaker breathes.
import { pcm16ToBase64 } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { OutboundServerEvent } from './events.ts'
import type { AudioClockTimeline } from './timeline.ts'

/** Output audio is sent in 100 ms deltas: small enough to interleave with captions, few enough events. */
export const OUTPUT_CHUNK_MS = 100
/**
 * The least silence between two utterances the model decided to say separately (an acknowledgement, then
 * the answer once the result is in). 600 ms is an ordinary pause between separate remarks; it keeps them two
 * utterances on the wire, as on the service, rather than one run-on stream, for every reader that splits
 * speech or captions at pauses (episodes, transcript lines, the client application's transcript memory).
 */
export const UTTERANCE_GAP_MS = 600

export interface SpokenInterval {
  startMs: number
  endMs: number
}

/** What the model said in one utterance, as far as its output transcript went out (a yield cuts it short). */
export interface SaidUtterance {
  text: string
  startMs: number
}

export interface SpeakerDeps {
  timeline: AudioClockTimeline
  send: (event: OutboundServerEvent) => void
  sampleRateHz: number
  /** Called once the last piece of an utterance has been released, or when a yield cut it short. */
  onSpeechEnd: (interval: SpokenInterval) => void
  /** Called when the first piece of an utterance goes out; `said.text` grows as its captions go out. */
  onSpeechStart?: (said: SaidUtterance) => void
  /** Called with the words and samples of each utterance decided (the rehearsal server learns its own voice). */
  onSynthesized?: (text: string, samples: Int16Array) => void
}

interface Utterance {
  text: string
  startMs: number
  endMs: number
  /** Set by a yield: nothing more of it goes out. */
  cut: boolean
  /** What of it went out so far (null before its first piece). */
  said: SaidUtterance | null
}

export class Speaker {
  readonly #deps: SpeakerDeps
  /** End of the latest utterance; null before the model first spoke. */
  #busyUntilMs: number | null = null
  /** Utterances decided and not yet finished, in order. */
  #unfinished: Utterance[] = []

  constructor(deps: SpeakerDeps) {
    this.#deps = deps
  }

  /** The end of the latest utterance decided (cut short by a yield), or null before the model first spoke. */
  get busyUntilMs(): number | null {
    return this.#busyUntilMs
  }

  /** Whether an utterance is going out at `atMs` (started and neither finished nor cut). */
  isSpeakingAt(atMs: number): boolean {
    return this.#unfinished.some((u) => u.startMs <= atMs && atMs < u.endMs)
  }

  /**
   * The caller took the floor at `atMs`: the utterance under way stops there (the service has no event
   * for this: its audio and transcript deltas simply stop) and those queued behind it are withdrawn.
   * Returns the texts of the withdrawn ones, which the model has not said yet and may say later.
   */
  yieldAt(atMs: number): string[] {
    const withdrawn: string[] = []
    const finishing: Utterance[] = []
    for (const utterance of this.#unfinished) {
      // One that ends right now finishes on its own (its end is already on the timeline).
      if (utterance.endMs <= atMs) {
        finishing.push(utterance)
        continue
      }
      utterance.cut = true
      if (utterance.startMs <= atMs) this.#deps.onSpeechEnd({ startMs: utterance.startMs, endMs: atMs })
      else withdrawn.push(utterance.text)
    }
    this.#unfinished = finishing
    if (this.#busyUntilMs !== null) this.#busyUntilMs = Math.min(this.#busyUntilMs, atMs)
    return withdrawn
  }

  /** Schedules `text` to be spoken as soon as the model is free (not before `notBeforeMs`). */
  speak(text: string, notBeforeMs: number): SpokenInterval {
    const { timeline, send, sampleRateHz } = this.#deps
    const samples = syntheticSpeech(text, { sampleRateHz })
    this.#deps.onSynthesized?.(text, samples)
    const afterPrevious = this.#busyUntilMs === null ? 0 : this.#busyUntilMs + UTTERANCE_GAP_MS
    const startMs = Math.max(timeline.nowMs, notBeforeMs, afterPrevious)
    const durationMs = Math.round((samples.length * 1000) / sampleRateHz)
    const endMs = startMs + durationMs
    const utterance: Utterance = { text, startMs, endMs, cut: false, said: null }
    this.#unfinished.push(utterance)
    const release = (atMs: number, action: () => void) =>
      timeline.schedule(atMs, 'output', () => {
        if (!utterance.cut) action()
      })

    release(startMs, () => {
      utterance.said = { text: '', startMs }
      this.#deps.onSpeechStart?.(utterance.said)
    })
    const chunkSamples = (sampleRateHz * OUTPUT_CHUNK_MS) / 1000
    for (let offset = 0, index = 0; offset < samples.length; offset += chunkSamples, index++) {
      const chunk = samples.subarray(offset, Math.min(samples.length, offset + chunkSamples))
      const delta = pcm16ToBase64(chunk)
      release(startMs + index * OUTPUT_CHUNK_MS, () => send({ type: 'session.output_audio.delta', delta }))
    }
    this.#busyUntilMs = endMs
    for (const caption of captionsFor(text, startMs, endMs)) {
      release(caption.start_ms, () => {
        if (utterance.said !== null) utterance.said.text += caption.delta
        send({ type: 'session.output_transcript.delta', ...caption })
      })
    }
    const interval = { startMs, endMs }
    release(endMs, () => {
      this.#unfinished = this.#unfinished.filter((u) => u !== utterance)
      this.#deps.onSpeechEnd(interval)
    })
    return interval
  }
}

export interface TimedFragment {
  delta: string
  start_ms: number
  end_ms: number
}

/**
 * Splits `text` into word fragments (each after the first keeps its leading space, so concatenating the
 * deltas gives the text back) and spreads them over [startMs, endMs) in proportion to their length.
 */
export function captionsFor(text: string, startMs: number, endMs: number): TimedFragment[] {
  const words = text.match(/\s*\S+/g) ?? []
  const total = words.reduce((sum, word) => sum + word.length, 0)
  const span = endMs - startMs
  const fragments: TimedFragment[] = []
  let before = 0
  for (const word of words) {
    const fragmentStart = startMs + Math.floor((span * before) / total)
    before += word.length
    const fragmentEnd = startMs + Math.floor((span * before) / total)
    fragments.push({
      delta: fragments.length === 0 ? word.trimStart() : word,
      start_ms: fragmentStart,
      end_ms: fragmentEnd,
    })
  }
  return fragments
}
