// Voice activity from the WebRTC detector (libfvad compiled to wasm), for audio that is not clean: a user's
// recording, noisy or through a phone line, whose caller speech intervals were not measured at generation time.
//
// Which detector for which signal:
// - ../speech-activity.ts (energy, RMS 220): the assistant's output channel, our synthetic voice, and the clean
//   caller signal before effects (effects/realism.ts measures the caller there). It is exact on digitally quiet
//   audio and is what the reference's interaction metrics use, but any noise floor above about -45 dBFS reads
//   as speech throughout (spec/audio.md §4: noise at RMS 1200 made the whole recording one interval).
// - this detector: a recording without measured intervals. Mode 3 (the most aggressive) at 16 kHz kept the
//   three clauses of spec/audio.md's test sentence apart under RMS-1200 noise and telephony plus noise. Like
//   every VAD it cannot tell the caller from a background talker, which is why conditioned recordings carry
//   intervals measured on their clean signal and this is only the fallback.
//
// fvad takes 8/16/32/48 kHz and 10/20/30 ms frames only, so 24 kHz input is resampled to 16 kHz (speex,
// streaming) and cut into 20 ms frames of 320 samples. Flags are merged like the energy detector's: pauses
// shorter than the hangover are bridged, intervals end on their last voiced frame, short bursts are dropped.
// Times are corrected for the resampler's fixed delay, so they sit on the input's clock.

import createFvad, { type FvadModule } from '@echogarden/fvad-wasm'
import { SAMPLE_RATE_HZ } from './pcm.ts'
import { StreamingResampler } from './resampler.ts'
import { type SpeechInterval, SpeechIntervalTracker } from './speech-intervals.ts'

const VAD_RATE_HZ = 16_000
const VAD_FRAME_MS = 20
const VAD_FRAME_SAMPLES = (VAD_RATE_HZ * VAD_FRAME_MS) / 1000

export interface VoiceActivityOptions {
  /** libfvad aggressiveness 0..3; 3 rejects the most non-speech. */
  mode?: 0 | 1 | 2 | 3
  /** Non-speech stretches shorter than this inside speech are bridged. */
  hangoverMs?: number
  /** Intervals shorter than this are dropped. */
  minSpeechMs?: number
  /** Time of the first pushed sample; intervals are reported on that clock. */
  originMs?: number
}

export const DEFAULT_VOICE_ACTIVITY = {
  mode: 3,
  hangoverMs: 200,
  minSpeechMs: 100,
  originMs: 0,
} as const satisfies Required<VoiceActivityOptions>

let fvadPromise: Promise<FvadModule> | undefined

/** Streaming WebRTC voice activity over 24 kHz PCM16. Push chunks in order, then `finish()` once. */
export class WebRtcVoiceActivityDetector {
  readonly #fvad: FvadModule
  readonly #instance: number
  readonly #framePointer: number
  readonly #resampler: StreamingResampler
  readonly #settings: Required<VoiceActivityOptions>
  readonly #delayMs: number
  readonly #pending = new Int16Array(VAD_FRAME_SAMPLES)
  readonly #tracker: SpeechIntervalTracker
  #pendingLength = 0
  #frameIndex = 0
  #finished = false

  private constructor(fvad: FvadModule, resampler: StreamingResampler, options: VoiceActivityOptions) {
    this.#settings = { ...DEFAULT_VOICE_ACTIVITY, ...options }
    this.#tracker = new SpeechIntervalTracker(this.#settings.hangoverMs, this.#settings.minSpeechMs)
    this.#fvad = fvad
    this.#resampler = resampler
    this.#delayMs = (resampler.outputLatencySamples * 1000) / VAD_RATE_HZ
    this.#instance = fvad._fvad_new()
    if (this.#instance === 0) throw new Error('WebRTC VAD: fvad_new failed (out of wasm memory)')
    if (fvad._fvad_set_mode(this.#instance, this.#settings.mode) !== 0) {
      fvad._fvad_free(this.#instance)
      throw new Error(`WebRTC VAD: mode must be 0, 1, 2 or 3; got ${this.#settings.mode}`)
    }
    fvad._fvad_set_sample_rate(this.#instance, VAD_RATE_HZ)
    this.#framePointer = fvad._malloc(VAD_FRAME_SAMPLES * 2)
  }

  static async create(options: VoiceActivityOptions = {}): Promise<WebRtcVoiceActivityDetector> {
    fvadPromise ??= createFvad()
    const [fvad, resampler] = await Promise.all([
      fvadPromise,
      StreamingResampler.create(SAMPLE_RATE_HZ, VAD_RATE_HZ),
    ])
    return new WebRtcVoiceActivityDetector(fvad, resampler, options)
  }

  push(samples: Int16Array): void {
    if (this.#finished) throw new Error('WebRtcVoiceActivityDetector: push() after finish()')
    this.#consume(this.#resampler.process(samples))
  }

  /** End of stream: flush the resampler, classify the last partial frame, close the open interval, free. */
  finish(): SpeechInterval[] {
    if (this.#finished) return [...this.#tracker.intervals]
    this.#finished = true
    this.#consume(this.#resampler.process(new Int16Array(this.#resampler.inputLatencySamples)))
    if (this.#pendingLength > 0) {
      this.#pending.fill(0, this.#pendingLength)
      this.#classify(this.#pending)
    }
    this.#tracker.close()
    this.#resampler.close()
    this.#fvad._fvad_free(this.#instance)
    this.#fvad._free(this.#framePointer)
    return [...this.#tracker.intervals]
  }

  #consume(samples16k: Int16Array): void {
    let offset = 0
    while (offset < samples16k.length) {
      const take = Math.min(VAD_FRAME_SAMPLES - this.#pendingLength, samples16k.length - offset)
      this.#pending.set(samples16k.subarray(offset, offset + take), this.#pendingLength)
      this.#pendingLength += take
      offset += take
      if (this.#pendingLength === VAD_FRAME_SAMPLES) {
        this.#classify(this.#pending)
        this.#pendingLength = 0
      }
    }
  }

  #classify(frame: Int16Array): void {
    const fvad = this.#fvad
    fvad.HEAP16.set(frame, this.#framePointer >> 1)
    const voiced = fvad._fvad_process(this.#instance, this.#framePointer, VAD_FRAME_SAMPLES) === 1
    const startMs = Math.max(0, this.#frameIndex * VAD_FRAME_MS - this.#delayMs) + this.#settings.originMs
    const endMs = Math.max(0, (this.#frameIndex + 1) * VAD_FRAME_MS - this.#delayMs) + this.#settings.originMs
    this.#frameIndex++
    if (endMs <= this.#settings.originMs) return // a frame made only of the resampler's leading delay
    this.#tracker.frame(startMs, endMs, voiced, voiced)
  }
}

/** WebRTC voice activity of a whole 24 kHz buffer (see WebRtcVoiceActivityDetector). */
export async function detectVoiceActivity(
  samples: Int16Array,
  options: VoiceActivityOptions = {},
): Promise<SpeechInterval[]> {
  const detector = await WebRtcVoiceActivityDetector.create(options)
  detector.push(samples)
  return detector.finish()
}
