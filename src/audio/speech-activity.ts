// Energy-based speech activity detection over PCM16. It is meant for clean, digitally quiet signals: the
// assistant's own output channel, the clean caller reference (effects/realism.ts measures the caller here,
// before any effect is mixed in) and our synthetic offline voice. The measurements in spec/audio.md §4 show an
// energy detector fails once noise reaches about -29 dBFS, so a noisy recording without measured intervals
// goes to the WebRTC detector in voice-activity.ts instead.
//
// Method: RMS per frame in dBFS, then a two-threshold state machine (hysteresis). Speech starts when a
// frame reaches `onsetDbfs` and continues while frames stay above the lower `releaseDbfs`, so a voice that
// dips between syllables is not chopped. Gaps below release shorter than `minSilenceMs` are bridged (a
// hangover) without extending the interval end: ends sit on the last voiced frame. Bursts shorter than
// `minSpeechMs` (clicks, a single loud frame) are dropped.
//
// Defaults: onset -43.5 dBFS is RMS 220 of 32768, the reference toolkit's voiced-PCM threshold, so our
// intervals agree with its interaction metrics; release is 6 dB lower; 10 ms frames give 10 ms timing
// resolution; 200 ms bridges pauses between words (the hangover measured in spec/audio.md §4); 60 ms is
// shorter than any real syllable.

import { SAMPLE_RATE_HZ } from './pcm.ts'
import { type SpeechInterval, SpeechIntervalTracker } from './speech-intervals.ts'

export type { SpeechInterval } from './speech-intervals.ts'

export interface SpeechActivityOptions {
  sampleRateHz?: number
  /** Analysis frame length. */
  frameMs?: number
  /** A frame at or above this level starts speech. */
  onsetDbfs?: number
  /** While speaking, frames at or above this level keep speech going. Must not exceed onsetDbfs. */
  releaseDbfs?: number
  /** Quieter stretches shorter than this inside speech are bridged. */
  minSilenceMs?: number
  /** Intervals shorter than this are discarded. */
  minSpeechMs?: number
  /** Time of the first pushed sample on the caller's clock; intervals are reported on that clock. */
  originMs?: number
}

export const DEFAULT_SPEECH_ACTIVITY = {
  sampleRateHz: SAMPLE_RATE_HZ,
  frameMs: 10,
  onsetDbfs: -43.5,
  releaseDbfs: -49.5,
  minSilenceMs: 200,
  minSpeechMs: 60,
  originMs: 0,
} as const satisfies Required<SpeechActivityOptions>

/** RMS level of samples in dBFS (full scale = 32768); -Infinity for digital silence. */
export function rmsDbfs(samples: Int16Array): number {
  if (samples.length === 0) return Number.NEGATIVE_INFINITY
  let energy = 0
  for (let i = 0; i < samples.length; i++) energy += (samples[i] as number) * (samples[i] as number)
  return 10 * Math.log10(energy / samples.length / (32768 * 32768))
}

/**
 * Incremental detector: push audio as it arrives (any chunk sizes), read confirmed intervals, and
 * `finish()` at the end of the stream to close the open one. Pushing in pieces yields exactly the same
 * intervals as pushing everything at once.
 */
export class SpeechActivityDetector {
  readonly #frameSamples: number
  readonly #frameMs: number
  readonly #onsetEnergy: number
  readonly #releaseEnergy: number
  readonly #originMs: number
  readonly #pending: Int16Array
  readonly #tracker: SpeechIntervalTracker
  #pendingLength = 0
  #frameIndex = 0
  #finished = false

  constructor(options: SpeechActivityOptions = {}) {
    const settings = { ...DEFAULT_SPEECH_ACTIVITY, ...options }
    if (settings.releaseDbfs > settings.onsetDbfs) {
      throw new Error(
        `Speech activity releaseDbfs (${settings.releaseDbfs}) must not be above onsetDbfs (${settings.onsetDbfs})`,
      )
    }
    this.#frameSamples = Math.round((settings.frameMs * settings.sampleRateHz) / 1000)
    if (!(this.#frameSamples > 0)) {
      throw new Error(
        `Speech activity frameMs ${settings.frameMs} gives no whole sample at ${settings.sampleRateHz} Hz`,
      )
    }
    this.#frameMs = (this.#frameSamples * 1000) / settings.sampleRateHz
    // Compare mean squared amplitude against thresholds converted once, instead of taking a log per frame.
    this.#onsetEnergy = dbfsToMeanSquare(settings.onsetDbfs)
    this.#releaseEnergy = dbfsToMeanSquare(settings.releaseDbfs)
    this.#tracker = new SpeechIntervalTracker(settings.minSilenceMs, settings.minSpeechMs)
    this.#originMs = settings.originMs
    this.#pending = new Int16Array(this.#frameSamples)
  }

  /** Intervals confirmed so far (an interval still open is not included until it ends). */
  get intervals(): readonly SpeechInterval[] {
    return this.#tracker.intervals
  }

  /** Start of the speech under way, on the caller's clock, once it has lasted minSpeechMs; else null. */
  get speakingSinceMs(): number | null {
    return this.#tracker.speakingSinceMs
  }

  /** Analyse more audio; returns the intervals that this chunk closed. */
  push(samples: Int16Array): SpeechInterval[] {
    if (this.#finished) throw new Error('SpeechActivityDetector: push() after finish()')
    const before = this.#tracker.intervals.length
    let offset = 0
    if (this.#pendingLength > 0) {
      const take = Math.min(this.#frameSamples - this.#pendingLength, samples.length)
      this.#pending.set(samples.subarray(0, take), this.#pendingLength)
      this.#pendingLength += take
      offset = take
      if (this.#pendingLength === this.#frameSamples) {
        this.#analyseFrame(this.#pending, 0, this.#frameSamples)
        this.#pendingLength = 0
      }
    }
    // Whole frames are read in place (no view per 10 ms frame: a call's channels are thousands of them).
    while (offset + this.#frameSamples <= samples.length) {
      this.#analyseFrame(samples, offset, this.#frameSamples)
      offset += this.#frameSamples
    }
    if (offset < samples.length) {
      this.#pending.set(samples.subarray(offset), 0)
      this.#pendingLength = samples.length - offset
    }
    return this.#tracker.intervals.slice(before)
  }

  /** End of stream: analyse the trailing partial frame and close any open interval. */
  finish(): readonly SpeechInterval[] {
    if (this.#finished) return this.#tracker.intervals
    this.#finished = true
    if (this.#pendingLength > 0) this.#analyseFrame(this.#pending, 0, this.#pendingLength)
    this.#tracker.close()
    return this.#tracker.intervals
  }

  /** The frame is `samples[start, start + length)`. */
  #analyseFrame(samples: Int16Array, start: number, length: number): void {
    let energy = 0
    for (let i = start; i < start + length; i++) {
      const value = samples[i] as number
      energy += value * value
    }
    const meanSquare = energy / length
    const startMs = this.#originMs + this.#frameIndex * this.#frameMs
    const endMs = startMs + (length * this.#frameMs) / this.#frameSamples
    this.#frameIndex++
    this.#tracker.frame(startMs, endMs, meanSquare >= this.#onsetEnergy, meanSquare >= this.#releaseEnergy)
  }
}

/** Speech intervals of a whole buffer, in ms from its first sample (plus `originMs`). */
export function detectSpeech(samples: Int16Array, options: SpeechActivityOptions = {}): SpeechInterval[] {
  const detector = new SpeechActivityDetector(options)
  detector.push(samples)
  return [...detector.finish()]
}

function dbfsToMeanSquare(dbfs: number): number {
  return 10 ** (dbfs / 10) * 32768 * 32768
}
