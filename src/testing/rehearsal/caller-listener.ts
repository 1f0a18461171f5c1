// The rehearsal server's ear for one session: it keeps the caller audio received since the last utterance it
// heard, notices when the caller has spoken and then fallen silent, and recognises what was said by its content
// (speech-catalogue.ts). What it recognised is heard as the words of the known clip, placed where that clip's
// speech lies on the session's received-audio clock; sound it cannot recognise is heard as UNINTELLIGIBLE, the
// way a real voice model hears a caller it cannot make out (it says so and asks again), never as a guess.
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import type { SpeechCatalogue } from './speech-catalogue.ts'

/** What a session hears for sound it could not recognise (its input transcript shows it). */
export const UNINTELLIGIBLE = '[inaudible]'
/** Caller silence after sound at which the listener tries to recognise it: longer than a pause between phrases. */
export const END_OF_UTTERANCE_SILENCE_MS = 700
/**
 * Silence after which sound that was not recognised is heard as unintelligible. Until then more sound may still
 * complete a known clip (a recording with a dropout of lost packets, up to ~0.8 s in the bundled WALK set).
 */
export const UNRECOGNISED_SILENCE_MS = 1_500
/** A 20 ms frame louder than this (dBFS) is sound; digital silence and dither are not. */
const SOUND_DBFS = -60
/** Sound shorter than this (a click) is no utterance. */
const MIN_UTTERANCE_MS = 100
/** The most audio kept for one utterance; older audio is dropped (an endless stream of sound stays bounded). */
const MAX_UTTERANCE_MS = 60_000

const FRAME_SAMPLES = (SAMPLE_RATE_HZ * 20) / 1000
const SOUND_MEAN_SQUARE = 10 ** (SOUND_DBFS / 10) * 32_768 * 32_768
const msOfSamples = (samples: number) => Math.floor((samples * 1000) / SAMPLE_RATE_HZ)

export class CallerListener {
  readonly #catalogue: SpeechCatalogue
  readonly #hear: (utterance: HeardUtterance) => void
  /** Audio since the last utterance ended (or the session started), in received chunks. */
  #chunks: Int16Array[] = []
  #keptSamples = 0
  /** Received-audio sample index of the first kept sample. */
  #keptFrom = 0
  #received = 0
  /** Samples of the frame being measured, and its sum of squares. */
  #frameFill = 0
  #frameEnergy = 0
  /** Where sound was first and last heard in the current utterance (sample indexes); null: silence so far. */
  #soundFrom: number | null = null
  #soundUntil = 0
  /** End of the previous heard utterance (ms), so the next one never starts before it. */
  #previousEndMs = 0
  /** Whether the sound so far was tried and not recognised, during the current silence. */
  #triedThisSilence = false

  constructor(catalogue: SpeechCatalogue, hear: (utterance: HeardUtterance) => void) {
    this.#catalogue = catalogue
    this.#hear = hear
  }

  /** Takes the next received samples (PCM16 24 kHz, in order). */
  receive(samples: Int16Array): void {
    this.#keep(samples)
    for (const sample of samples) {
      this.#frameEnergy += sample * sample
      this.#received += 1
      if (++this.#frameFill < FRAME_SAMPLES) continue
      if (this.#frameEnergy / FRAME_SAMPLES > SOUND_MEAN_SQUARE) {
        this.#soundFrom ??= this.#received - FRAME_SAMPLES
        this.#soundUntil = this.#received
        this.#triedThisSilence = false
      }
      this.#frameFill = 0
      this.#frameEnergy = 0
    }
    if (this.#soundFrom === null) return
    const silentMs = msOfSamples(this.#received - this.#soundUntil)
    if (silentMs >= UNRECOGNISED_SILENCE_MS) {
      this.#utteranceEnded(this.#recognise() ?? this.#unintelligible())
    } else if (silentMs >= END_OF_UTTERANCE_SILENCE_MS && !this.#triedThisSilence) {
      this.#triedThisSilence = true
      const recognised = this.#recognise()
      if (recognised !== null) this.#utteranceEnded(recognised)
    }
  }

  #keep(samples: Int16Array): void {
    this.#chunks.push(samples.slice())
    this.#keptSamples += samples.length
    const limit = (MAX_UTTERANCE_MS * SAMPLE_RATE_HZ) / 1000
    while (this.#keptSamples - (this.#chunks[0]?.length ?? 0) >= limit) {
      const dropped = this.#chunks.shift()
      if (dropped === undefined) break
      this.#keptSamples -= dropped.length
      this.#keptFrom += dropped.length
    }
  }

  /** The kept sound recognised, placed on the received-audio clock; null when it is nothing known. */
  #recognise(): HeardUtterance | null {
    const sound = new Int16Array(this.#keptSamples)
    let at = 0
    for (const chunk of this.#chunks) {
      sound.set(chunk, at)
      at += chunk.length
    }
    const recognised = this.#catalogue.recognise(sound)
    if (recognised === null) return null
    const keptFromMs = msOfSamples(this.#keptFrom)
    return {
      text: recognised.text,
      startMs: keptFromMs + recognised.startMs,
      endMs: keptFromMs + recognised.endMs,
    }
  }

  /** Sound it could not make out, where the sound was. */
  #unintelligible(): HeardUtterance | null {
    const from = this.#soundFrom ?? 0
    if (msOfSamples(this.#soundUntil - from) < MIN_UTTERANCE_MS) return null
    return { text: UNINTELLIGIBLE, startMs: msOfSamples(from), endMs: msOfSamples(this.#soundUntil) }
  }

  /** The utterance is over: heard as `heard` (nothing for a click), and listening starts afresh. */
  #utteranceEnded(heard: HeardUtterance | null): void {
    this.#chunks = []
    this.#keptSamples = 0
    this.#keptFrom = this.#received
    this.#soundFrom = null
    this.#triedThisSilence = false
    if (heard === null) return
    const startMs = Math.max(heard.startMs, this.#previousEndMs)
    const endMs = Math.max(heard.endMs, startMs + 1)
    this.#previousEndMs = endMs
    this.#hear({ text: heard.text, startMs, endMs })
  }
}
