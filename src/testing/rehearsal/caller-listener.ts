// The rehearsal server's ear for one session: it keeps the caller audio received since the last utterance it
// heard, notices when the caller has spoken and then fallen silent, and recognises what was said by its content
// (speech-catalogue.ts). What it recognised is heard as the words of the known clip, placed where that clip's
// speech lies on the session's received-audio clock; sound it cannot recognise is heard as UNINTELLIGIBLE, the
// way a real voice model hears a caller it cannot make out (it says so and asks again), never as a guess.
//
// It also hears speech begin, as a voice model's voice-activity detection does, before the words are over: once a
// stretch of sound has lasted PREFIX_MS it says so, with the words when the stretch starts like one known clip
// (so a talking model can tell a listener's "mm-hmm" from a barge-in), and it tells how long the other side has
// been talking or quiet (the simulated caller's cue to barge in, or to go on after its own backchannel).
//
// On a busy machine the relay between the sessions of a RUN call can leave a gap of a second inside a line. Sound
// that is the beginning of a clip the server synthesised is heard as that clip up to that position
// (SpeechCatalogue.partOf), so it is no utterance yet: sound after the gap that goes on with the same clip is the
// same line (one utterance, no new speech start); sound that does not is another utterance, and the part before it
// is heard as the words it said.
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import { PREFIX_MS, type RecognisedPart, type SpeechCatalogue } from './speech-catalogue.ts'

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
/**
 * How long the rest of a known clip heard in part is waited for (a relay's gap under load) before the part is heard
 * as the words it said (a line cut short: the speaker yielded). A real gap of the relay is about a second.
 */
export const PART_WAIT_MS = 5_000
/** Sound shorter than this (a click) is no utterance. */
const MIN_UTTERANCE_MS = 100
/** The most audio kept for one utterance; older audio is dropped (an endless stream of sound stays bounded). */
const MAX_UTTERANCE_MS = 60_000

/**
 * Quiet shorter than this inside sound does not end a stretch of talking (a relay that ran dry a tick mid-word);
 * the pause between two separate utterances of a voice model (600 ms) does.
 */
export const TALKING_GAP_MS = 200
/** A stretch whose start is still not identified after this much sound is speech of an unknown voice. */
const ONSET_GIVE_UP_MS = 1_000

/** What the listener hears right now, on the received-audio clock (ms). */
export interface Listening {
  nowMs: number
  /** Start of the stretch of sound under way; null while quiet (longer than TALKING_GAP_MS). */
  talkingSinceMs: number | null
  /** End of the last sound heard; null before any. */
  lastSoundEndMs: number | null
}

const FRAME_SAMPLES = (SAMPLE_RATE_HZ * 20) / 1000
const SOUND_MEAN_SQUARE = 10 ** (SOUND_DBFS / 10) * 32_768 * 32_768
const msOfSamples = (samples: number) => Math.floor((samples * 1000) / SAMPLE_RATE_HZ)

export class CallerListener {
  readonly #catalogue: SpeechCatalogue
  readonly #hear: (utterance: HeardUtterance) => void
  readonly #speechStarted: (text: string | null) => void
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
  /** Start of the current stretch of talking (sample index); null before any sound. */
  #stretchFrom: number | null = null
  /** End of the last loud frame (sample index); null before any. */
  #lastSoundAt: number | null = null
  /** Whether the current stretch's start was not yet reported. */
  #onsetPending = false
  /** The kept sound is this known clip in part, as of the last silence: the rest of it may still come. */
  #part: RecognisedPart | null = null
  /** Sound after a gap in a known clip heard in part: whether it goes on with that clip is not yet known. */
  #afterGap: { stretchFrom: number; previousStretchFrom: number } | null = null

  /**
   * `hear` takes each utterance once it is over; `speechStarted` is told when a stretch of sound begins, with its
   * words when its start is one known clip's, null when it is not (or is several texts').
   */
  constructor(
    catalogue: SpeechCatalogue,
    hear: (utterance: HeardUtterance) => void,
    speechStarted: (text: string | null) => void = () => {},
  ) {
    this.#catalogue = catalogue
    this.#hear = hear
    this.#speechStarted = speechStarted
  }

  /** What it hears now. */
  get listening(): Listening {
    const talking =
      this.#stretchFrom !== null &&
      this.#lastSoundAt !== null &&
      msOfSamples(this.#received - this.#lastSoundAt) <= TALKING_GAP_MS
    return {
      nowMs: msOfSamples(this.#received),
      talkingSinceMs: talking ? msOfSamples(this.#stretchFrom ?? 0) : null,
      lastSoundEndMs: this.#lastSoundAt === null ? null : msOfSamples(this.#lastSoundAt),
    }
  }

  /** Takes the next received samples (PCM16 24 kHz, in order). */
  receive(samples: Int16Array): void {
    this.#keep(samples)
    for (const sample of samples) {
      this.#frameEnergy += sample * sample
      this.#received += 1
      if (++this.#frameFill < FRAME_SAMPLES) continue
      if (this.#frameEnergy / FRAME_SAMPLES > SOUND_MEAN_SQUARE) {
        const frameFrom = this.#received - FRAME_SAMPLES
        if (this.#lastSoundAt === null || msOfSamples(frameFrom - this.#lastSoundAt) > TALKING_GAP_MS) {
          // Only the start of an utterance is speech starting: sound after a short gap inside one (a relay that
          // ran dry on a busy machine) goes on with it, whatever its first 200 ms sound like. After a gap in a
          // known clip heard in part, its content tells (#followGap).
          if (this.#part !== null && this.#soundFrom !== null)
            this.#afterGap = { stretchFrom: frameFrom, previousStretchFrom: this.#stretchFrom ?? frameFrom }
          this.#stretchFrom = frameFrom
          this.#onsetPending = this.#soundFrom === null
        }
        this.#lastSoundAt = this.#received
        this.#soundFrom ??= frameFrom
        this.#soundUntil = this.#received
        this.#triedThisSilence = false
      }
      this.#frameFill = 0
      this.#frameEnergy = 0
    }
    if (this.#afterGap !== null) this.#followGap()
    if (this.#onsetPending) this.#reportOnset()
    if (this.#soundFrom === null) return
    const silentMs = msOfSamples(this.#received - this.#soundUntil)
    if (silentMs >= END_OF_UTTERANCE_SILENCE_MS && !this.#triedThisSilence) {
      this.#triedThisSilence = true
      this.#hearLeadingClips()
      // A known clip heard in part is no utterance yet: the rest of it may come after a gap of the relay.
      this.#part = this.#catalogue.partOf(this.#keptFromSample(this.#keptFrom))
      if (this.#part === null) {
        const recognised = this.#recognise()
        if (recognised !== null) this.#utteranceEnded(recognised)
      }
    } else if (this.#part !== null) {
      if (silentMs >= PART_WAIT_MS) this.#utteranceEnded(this.#partHeard(this.#part))
    } else if (silentMs >= UNRECOGNISED_SILENCE_MS) {
      this.#utteranceEnded(this.#recognise() ?? this.#unintelligible())
    }
  }

  /**
   * Sound came after a gap in the known clip heard in part. Once its content shows it (a whole block further, or
   * the whole clip), it is either that clip going on (the same line and the same stretch of talking) or something
   * else: then the part is heard as the words it said, and the new sound starts an utterance of its own.
   */
  #followGap(): void {
    const gap = this.#afterGap
    const part = this.#part
    if (gap === null || part === null) return
    const kept = this.#keptFromSample(this.#keptFrom)
    const now = this.#catalogue.partOf(kept)
    const sameClip = now !== null && now.text === part.text
    if (sameClip && now.blocks <= part.blocks) return
    let sameLine = sameClip
    if (!sameClip) {
      // The same clip in place after a burst it lost (the gap was the line dropping packets): still the same line.
      const lossy = this.#catalogue.lossyPartOf(kept, part.text)
      if (lossy === 'pending') return
      sameLine = lossy || this.#catalogue.recognise(kept)?.clipText === part.text
    }
    this.#afterGap = null
    this.#part = null
    if (sameLine) {
      this.#stretchFrom = gap.previousStretchFrom
      return
    }
    const before = kept.subarray(0, gap.stretchFrom - this.#keptFrom)
    const partBefore = this.#catalogue.partOf(before) ?? part
    const next = this.#keptFromSample(gap.stretchFrom)
    this.#utteranceEnded(this.#partHeard(partBefore))
    this.#chunks = [next]
    this.#keptSamples = next.length
    this.#keptFrom = gap.stretchFrom
    this.#soundFrom = gap.stretchFrom
    this.#onsetPending = true
  }

  /**
   * Each known clip the kept sound begins with, whole or cut short, with more sound after it, is an utterance of
   * its own ("One moment." and the answer half a second after it; a line the speaker yielded, then its next one
   * soon after), so what follows is heard by itself (whole, or in part). Without it a short pause after a line cut
   * short made the cut line, the hold and the answer one unintelligible utterance that began before the listener's
   * own line ended: the RUN caller took it for speech it talked over and never answered.
   */
  #hearLeadingClips(): void {
    for (;;) {
      const keptFrom = this.#keptFrom
      const kept = this.#keptFromSample(keptFrom)
      const keptFromMs = msOfSamples(keptFrom)
      const leading = this.#catalogue.leadingClip(kept)
      const part = leading === null ? this.#catalogue.leadingPart(kept) : null
      let endSample: number
      if (leading !== null) {
        endSample = leading.endSample
        this.#utteranceEnded({
          text: leading.text,
          startMs: keptFromMs + leading.startMs,
          endMs: keptFromMs + leading.endMs,
        })
      } else if (part !== null) {
        endSample = part.endSample
        this.#utteranceEnded(this.#partHeard(part))
      } else return
      // Listening starts afresh after the utterance (#utteranceEnded), with the sound that followed it kept.
      const rest = kept.subarray(endSample)
      const restFrom = keptFrom + endSample
      this.#chunks = [rest]
      this.#keptSamples = rest.length
      this.#keptFrom = restFrom
      this.#soundFrom = restFrom
      this.#triedThisSilence = true
    }
  }

  /** A known clip heard in part, as the words it said by then (unintelligible when not one word was over). */
  #partHeard(part: RecognisedPart): HeardUtterance {
    const keptFromMs = msOfSamples(this.#keptFrom)
    return {
      text: part.saidText.trim() === '' ? UNINTELLIGIBLE : part.saidText,
      startMs: keptFromMs + part.startMs,
      endMs: keptFromMs + part.endMs,
    }
  }

  /** Says the current stretch began, once its start is identified (or long enough that it will not be). */
  #reportOnset(): void {
    const from = this.#stretchFrom ?? 0
    const start = this.#keptFromSample(from)
    const heard = this.#catalogue.recogniseStart(start)
    if (heard.pending && msOfSamples(this.#received - from) < Math.max(ONSET_GIVE_UP_MS, PREFIX_MS)) return
    this.#onsetPending = false
    const texts = heard.pending ? [] : heard.texts
    this.#speechStarted(texts.length === 1 ? (texts[0] as string) : null)
  }

  /** The kept audio from sample index `from` (or from the oldest kept, if that is later). */
  #keptFromSample(from: number): Int16Array {
    const skip = Math.max(0, from - this.#keptFrom)
    const out = new Int16Array(Math.max(0, this.#keptSamples - skip))
    let at = 0
    let offset = 0
    for (const chunk of this.#chunks) {
      const begin = Math.max(0, skip - offset)
      if (begin < chunk.length) {
        out.set(chunk.subarray(begin), at)
        at += chunk.length - begin
      }
      offset += chunk.length
    }
    return out
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
    this.#part = null
    this.#afterGap = null
    if (heard === null) return
    const startMs = Math.max(heard.startMs, this.#previousEndMs)
    const endMs = Math.max(heard.endMs, startMs + 1)
    this.#previousEndMs = endMs
    this.#hear({ text: heard.text, startMs, endMs })
  }
}
