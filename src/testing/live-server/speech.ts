// The offline voice model's mouth: turns text into deterministic synthetic speech, sent as output audio
// deltas with matching output transcript deltas, placed on the received-audio timeline. Output is released
// as the caller's audio clock reaches each piece, the way a real-time model speaks while the caller's
// stream (often silence) keeps flowing; speech never overlaps earlier speech.
import { pcm16ToBase64 } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { OutboundServerEvent } from './events.ts'
import type { AudioClockTimeline } from './timeline.ts'

/** Output audio is sent in 100 ms deltas: small enough to interleave with captions, few enough events. */
export const OUTPUT_CHUNK_MS = 100

export interface SpokenInterval {
  startMs: number
  endMs: number
}

export interface SpeakerDeps {
  timeline: AudioClockTimeline
  send: (event: OutboundServerEvent) => void
  sampleRateHz: number
  /** Called once the last piece of an utterance has been released. */
  onSpeechEnd: (interval: SpokenInterval) => void
}

export class Speaker {
  readonly #deps: SpeakerDeps
  #busyUntilMs = 0

  constructor(deps: SpeakerDeps) {
    this.#deps = deps
  }

  /** Schedules `text` to be spoken as soon as the model is free (not before `notBeforeMs`). */
  speak(text: string, notBeforeMs: number): SpokenInterval {
    const { timeline, send, sampleRateHz } = this.#deps
    const samples = syntheticSpeech(text, { sampleRateHz })
    const startMs = Math.max(timeline.nowMs, notBeforeMs, this.#busyUntilMs)
    const durationMs = Math.round((samples.length * 1000) / sampleRateHz)
    const endMs = startMs + durationMs
    this.#busyUntilMs = endMs

    const chunkSamples = (sampleRateHz * OUTPUT_CHUNK_MS) / 1000
    for (let offset = 0, index = 0; offset < samples.length; offset += chunkSamples, index++) {
      const chunk = samples.subarray(offset, Math.min(samples.length, offset + chunkSamples))
      const delta = pcm16ToBase64(chunk)
      timeline.schedule(startMs + index * OUTPUT_CHUNK_MS, 'output', () =>
        send({ type: 'session.output_audio.delta', delta }),
      )
    }
    for (const caption of captionsFor(text, startMs, endMs)) {
      timeline.schedule(caption.start_ms, 'output', () =>
        send({ type: 'session.output_transcript.delta', ...caption }),
      )
    }
    const interval = { startMs, endMs }
    timeline.schedule(endMs, 'output', () => this.#deps.onSpeechEnd(interval))
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
