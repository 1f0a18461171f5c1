// A relay that knows whether what it holds is speech. The drain (§6) must not end a call while speech is still on
// its way to the other party, but the relays also carry silence (the offline voice sends its pauses, a live
// session streams silence between words), and held-back silence is no reason to keep a call open. So each received
// piece is judged frame by frame as it arrives, and `bufferedSpeech` is true only while a voiced frame has not been
// taken yet.
import { SAMPLES_PER_FRAME } from '../../audio/pcm.ts'
import { DEFAULT_SPEECH_ACTIVITY, rmsDbfs } from '../../audio/speech-activity.ts'
import { AudioRelay } from '../engine/media-clock.ts'

/** The timeline's onset threshold, the one the tracks' voice activity uses. */
export const isVoicedFrame = (frame: Int16Array): boolean =>
  rmsDbfs(frame) >= DEFAULT_SPEECH_ACTIVITY.onsetDbfs

export class SpeechRelay extends AudioRelay {
  /** The received audio not yet taken, as frames: their length and whether they are voiced. */
  readonly #frames: { samples: number; voiced: boolean }[] = []
  #voicedFrames = 0
  readonly #isVoiced: (frame: Int16Array) => boolean

  constructor(isVoiced: (frame: Int16Array) => boolean = isVoicedFrame) {
    super()
    this.#isVoiced = isVoiced
  }

  override push(samples: Int16Array): void {
    super.push(samples)
    for (let offset = 0; offset < samples.length; offset += SAMPLES_PER_FRAME) {
      const frame = samples.subarray(offset, Math.min(samples.length, offset + SAMPLES_PER_FRAME))
      const voiced = this.#isVoiced(frame)
      this.#frames.push({ samples: frame.length, voiced })
      if (voiced) this.#voicedFrames += 1
    }
  }

  override take(samples: number, into?: Int16Array): Int16Array {
    const before = this.bufferedSamples
    const chunk = super.take(samples, into)
    let taken = before - this.bufferedSamples
    while (taken > 0) {
      const head = this.#frames[0]
      if (head === undefined) break
      if (head.samples <= taken) {
        taken -= head.samples
        this.#frames.shift()
        if (head.voiced) this.#voicedFrames -= 1
      } else {
        head.samples -= taken
        taken = 0
      }
    }
    return chunk
  }

  /** A voiced frame was received and has not been taken yet; buffered silence does not count. */
  get bufferedSpeech(): boolean {
    return this.#voicedFrames > 0
  }
}
