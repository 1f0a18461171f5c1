// Voice activity of one relayed track, as the other party hears it: which 20 ms frames of the relayed audio are
// voiced (the timeline's onset threshold), kept as intervals on the media clock. The driver reads it for the
// openings (who spoke first, and when), the drain (last voice, quiet) and the evidence (is anyone talking).
import { SAMPLE_RATE_HZ, SAMPLES_PER_FRAME } from '../../../audio/pcm.ts'
import { DEFAULT_SPEECH_ACTIVITY, rmsDbfs } from '../../../audio/speech-activity.ts'
import type { SpokenSpan } from './caller-actions.ts'

const FRAME_MS = (SAMPLES_PER_FRAME * 1000) / SAMPLE_RATE_HZ

export class TrackActivity {
  readonly #voiced: SpokenSpan[] = []
  /** Onsets not yet taken by `takeOnsets` (the drain hears each new caller onset once). */
  #newOnsets: number[] = []

  /** The relayed chunk heard from `atMs`, judged frame by frame. */
  hear(atMs: number, samples: Int16Array): void {
    for (let offset = 0; offset < samples.length; offset += SAMPLES_PER_FRAME) {
      const frame = samples.subarray(offset, Math.min(samples.length, offset + SAMPLES_PER_FRAME))
      if (rmsDbfs(frame) < DEFAULT_SPEECH_ACTIVITY.onsetDbfs) continue
      const startMs = atMs + (offset * 1000) / SAMPLE_RATE_HZ
      const endMs = startMs + (frame.length * 1000) / SAMPLE_RATE_HZ
      const last = this.#voiced.at(-1)
      // Frames a frame apart belong to one stretch of voice; anything longer is a new onset.
      if (last !== undefined && startMs - last.endMs <= FRAME_MS) last.endMs = endMs
      else {
        this.#voiced.push({ startMs, endMs })
        this.#newOnsets.push(startMs)
      }
    }
  }

  get firstVoiceMs(): number | null {
    return this.#voiced[0]?.startMs ?? null
  }

  /** End of the last voiced frame; null before any. */
  get lastVoiceEndMs(): number | null {
    return this.#voiced.at(-1)?.endMs ?? null
  }

  /** Voiced within `windowMs` before `nowMs`. */
  voicedSince(nowMs: number, windowMs: number): boolean {
    const last = this.lastVoiceEndMs
    return last !== null && last > nowMs - windowMs
  }

  /** Onsets heard since the last call, in order. */
  takeOnsets(): number[] {
    const onsets = this.#newOnsets
    this.#newOnsets = []
    return onsets
  }

  get voiced(): readonly SpokenSpan[] {
    return this.#voiced
  }
}
