// What the dress-rehearsal server can recognise in caller audio: speech it synthesised itself (its text-to-speech
// answers, and the synthetic voice of every dataset row's text, so audio a live run cached earlier is known too)
// and the dataset's recordings. Recognition is by content, never by who sent it:
// - exactly, by a fingerprint of the PCM without its digital silence (what a live run streams is the same
//   samples after a lead-in of silence, padded with silence after, and in a RUN call with the silence a relay
//   inserts mid-speech when the other session's audio arrives a tick late);
// - otherwise by the nearest coarse energy envelope (20 ms frames, in dB) among the known clips, so a
//   recording degraded by an acoustic preset (noise, telephony, echo, packet loss) is still recognised. A
//   match must be clearly closer than any clip saying something else; audio that is not is not recognised.
// - while it is still being heard, by its start (recogniseStart), and as a part: sound whose content is the
//   beginning of one synthesised clip, block by block (partOf), is that clip heard up to that position, so the rest
//   of it heard after a relay's gap is still the same line, and sound that does not go on so is another one;
// - with bursts of it lost in place (a line that dropped packets: samples zeroed, its length kept, as the harness's
//   uplink_loss fault does), by content, whatever silence a relay inserted besides (lost-stretches.ts): that clip,
//   heard as its words without those whose middle fell in a lost burst, the rule the offline server's oracle hears
//   such a line by (src/faults/transport.ts).
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { captionsFor } from '../live-server/speech.ts'
import { lostStretches } from './lost-stretches.ts'
import {
  BLOCK_SAMPLES,
  blockDigests,
  blockHeads,
  type ContentPlacement,
  contentBefore,
  contentFingerprint,
  contentOf,
  contentPlacement,
  contentWithPositions,
  fingerprintOf,
  nonSilentExtent,
  sampleOfContent,
  silentRuns,
  tailDigest,
} from './speech-content.ts'

/** Envelope frame: one value per 20 ms, the transport's frame. */
export const ENVELOPE_FRAME_MS = 20
const FRAME_SAMPLES = (SAMPLE_RATE_HZ * ENVELOPE_FRAME_MS) / 1000
/** Frames quieter than this are floored, so silence, dither and noise below it read alike. */
const FLOOR_DB = -70
/** The least envelope correlation that counts as the same clip (degraded copies of one clip reach ~0.8+). */
export const MIN_ENVELOPE_CORRELATION = 0.7
/** How much closer the best clip must be than the best clip with another text. */
const MIN_MARGIN = 0.05
/** A clip may be this much shorter than the sound it is matched against (a coda of noise or echo). */
const MIN_COVERAGE = 0.8
/** Synthesised clips kept for recognition (oldest forgotten first), so a long-running server stays bounded. */
const MAX_SYNTHESISED = 4_096
/**
 * How much of a clip's start (ms of samples that are not digital silence) identifies it while it is still being
 * heard: shorter than any clip (the synthetic voice's shortest is 300 ms), long enough that two texts differ.
 */
export const PREFIX_MS = 200
const PREFIX_SAMPLES = (SAMPLE_RATE_HZ * PREFIX_MS) / 1000
/**
 * The least gap of digital silence that can end a clip heard in part (leadingPart) or be a burst a line lost
 * (#withLoss): a frame of the relay's 20 ms (the silence a yielded line leaves before the next is at least that; a
 * lost burst is whole frames); a lone zero sample inside a word is none.
 */
const MIN_PART_GAP_SAMPLES = (SAMPLE_RATE_HZ * 20) / 1000

/**
 * Sound recognised as the beginning of one known clip, not all of it (yet): what the clip says up to where it was
 * heard, placed in the sound like `Recognised`.
 */
export interface RecognisedPart {
  /** The whole clip's words, and those said by the heard position (empty when not one word is over). */
  text: string
  saidText: string
  startMs: number
  /** End of the last sound heard, in ms from the sound's first sample. */
  endMs: number
  /** How many of the clip's content blocks the sound covers, whole. */
  blocks: number
}

export interface KnownSpeech {
  text: string
  /**
   * When the words are spoken in the clip (ms from its first sample), e.g. a recording's measured intervals;
   * null: from its first to its last sample that is not digital silence.
   */
  speech: { startMs: number; endMs: number } | null
}

/** What was recognised in a stretch of audio, times in ms from that stretch's first sample. */
export interface Recognised {
  text: string
  startMs: number
  endMs: number
  /** `exact` (fingerprint), `lossy` (a clip with bursts lost in place) or `envelope` (nearest, with its correlation). */
  how: 'exact' | 'lossy' | 'envelope'
  correlation: number
  /** The recognised clip's own words: `text` without the lost words for a `lossy` match, else `text`. */
  clipText: string
}

interface Clip {
  text: string
  /** Samples of digital silence before the first non-zero sample. */
  leadingZeros: number
  speechStartMs: number
  speechEndMs: number
  envelope: Float64Array
  synthesised: boolean
  /** Spoken by the synthetic voice (add's `syntheticVoice`). */
  syntheticVoice: boolean
  /** Fingerprint of its first PREFIX_MS of sound; null for a clip shorter than that. */
  prefix: string | null
  /** Digests of its content in BLOCK_SAMPLES blocks (the last one, shorter, left out), and the content's length. */
  blocks: string[]
  contentSamples: number
  /** Each block's first two samples (speech-content.ts headAt), for finding where the clip goes on after a loss. */
  heads: Int32Array
  /** Digest of its content after the last whole block; null when there is none. */
  tail: string | null
  /** Where its content samples lie among its samples. */
  placement: ContentPlacement
  /** Fingerprint of its whole content (fingerprintOf). */
  fingerprint: string
}

export class SpeechCatalogue {
  readonly #byFingerprint = new Map<string, Clip>()
  /** Clips by the fingerprint of their start (several texts may begin alike). */
  readonly #byPrefix = new Map<string, Clip[]>()
  readonly #clips: Clip[] = []
  #synthesised = 0

  /** How many clips are known. */
  get size(): number {
    return this.#clips.length
  }

  /**
   * Learns a clip. `synthesised` clips (the text-to-speech answers) are bounded in number; the oldest one is
   * forgotten first. The same samples learnt twice keep their first text. `syntheticVoice`: the clip is the
   * synthetic voice's (a dataset row's text; `synthesised` ones always are), which a line that lost a burst in
   * place is matched against; a recording is not (an acoustic preset's packet loss would read as a lost burst).
   */
  add(
    samples: Int16Array,
    known: KnownSpeech,
    options: { synthesised?: boolean; syntheticVoice?: boolean } = {},
  ): void {
    const extent = nonSilentExtent(samples)
    if (extent === null) return
    // The content of the whole clip is that of its extent: filtered once, for the fingerprint and the blocks.
    const content = contentOf(samples)
    const fingerprint = contentFingerprint(content)
    if (this.#byFingerprint.has(fingerprint)) return
    const clip: Clip = {
      text: known.text,
      leadingZeros: extent.start,
      speechStartMs: known.speech?.startMs ?? samplesToMs(extent.start),
      speechEndMs: known.speech?.endMs ?? samplesToMs(extent.end),
      envelope: energyEnvelope(samples),
      synthesised: options.synthesised ?? false,
      syntheticVoice: (options.synthesised ?? false) || (options.syntheticVoice ?? false),
      prefix: prefixFingerprintOf(samples),
      blocks: blockDigests(content),
      contentSamples: content.length,
      heads: blockHeads(content),
      tail: tailDigest(content),
      placement: contentPlacement(samples),
      fingerprint,
    }
    this.#byFingerprint.set(fingerprint, clip)
    if (clip.prefix !== null)
      this.#byPrefix.set(clip.prefix, [...(this.#byPrefix.get(clip.prefix) ?? []), clip])
    this.#clips.push(clip)
    if (clip.synthesised && ++this.#synthesised > MAX_SYNTHESISED) this.#forgetOldestSynthesised()
  }

  /** Recognises the one utterance in `sound` (PCM16 24 kHz), or null when no known clip is clearly it. */
  recognise(sound: Int16Array): Recognised | null {
    const extent = nonSilentExtent(sound)
    if (extent === null) return null
    const exact = this.#byFingerprint.get(fingerprintOf(sound.subarray(extent.start, extent.end)))
    if (exact !== undefined) {
      const offsetMs = samplesToMs(extent.start - exact.leadingZeros)
      return placed(exact, offsetMs, 'exact', 1)
    }
    return this.#lossy(new HeardSound(sound)) ?? this.#nearest(energyEnvelope(sound), extent)
  }

  /**
   * A clip of the synthetic voice that `sound` is, but for bursts of it lost in place (#withLoss): the clip placed
   * like `recognise` places it, heard as its words without those whose middle fell in a lost burst. Null when the
   * sound is no such clip (a cut line, another line, a line with nothing lost), or no word is left.
   */
  #lossy(sound: HeardSound): Recognised | null {
    const found = this.#withLoss(sound, 'whole')
    if (found === null || found === 'pending') return null
    const { clip, offset, lost } = found
    const kept = captionsFor(clip.text, clip.speechStartMs, clip.speechEndMs).filter((word) => {
      const middle = (word.start_ms + word.end_ms) / 2
      return !lost.some((run) => middle >= samplesToMs(run.start) && middle < samplesToMs(run.end))
    })
    const text = kept
      .map((word) => word.delta)
      .join('')
      .trim()
    // A line with no word left is not heard as that line (the oracle does not hear it at all).
    if (text === '') return null
    return { ...placed(clip, samplesToMs(offset), 'lossy', 1), text }
  }

  /**
   * Whether `sound` (from before its first sample) is the beginning of the synthetic voice's clip saying `text`,
   * with bursts of it lost (partOf for a line that dropped packets, while it is still being heard): `pending`
   * until two content blocks (80 ms of sound) after the gap were heard. Only that clip is tried: the question is
   * whether the part heard before the burst goes on.
   */
  lossyPartOf(sound: Int16Array, text: string): boolean | 'pending' {
    const found = this.#withLoss(new HeardSound(sound), 'beginning', text)
    return found === 'pending' ? found : found !== null
  }

  /**
   * The synthetic voice's clip `sound` is (`whole`) or begins like (`beginning`), with stretches of it lost in place,
   * each where a run of digital silence of a relay frame or more begins in the sound (lost-stretches.ts); other
   * silence inside it is not content and does not count. The clip, where its first sample lies in the sound, and
   * the lost runs in clip samples (from the clip's last sound before each loss to its first after); `pending`: a
   * beginning with too little heard after a run to tell. With `text`, only the clip saying it is tried.
   */
  #withLoss(
    sound: HeardSound,
    span: 'whole' | 'beginning',
    text?: string,
  ): { clip: Clip; offset: number; lost: { start: number; end: number }[] } | 'pending' | null {
    // No run of silence inside it (most utterances): nothing was lost, and nothing needs hashing.
    const { runs, extent } = sound
    if (runs.length === 0 || extent === null) return null
    const prefix = sound.prefix
    if (prefix === null) return null
    const candidates = (this.#byPrefix.get(prefix) ?? []).filter(
      (clip) => clip.syntheticVoice && (text === undefined || clip.text === text),
    )
    if (candidates.length === 0) return null
    const { content, positions } = sound.content
    const gaps = runs.map((run) => ({
      at: contentBefore(positions, run.start),
      samples: run.end - run.start,
    }))
    let pending = false
    for (const clip of candidates) {
      const offset = extent.start - clip.leadingZeros
      if (offset < 0) continue
      const lost = lostStretches(clip, content, gaps, span)
      if (lost === 'pending') pending = true
      if (lost === null || lost === 'pending') continue
      return {
        clip,
        offset,
        lost: lost.map((stretch) => ({
          start: sampleOfContent(clip.placement, stretch.start - 1) + 1,
          end: sampleOfContent(clip.placement, stretch.end),
        })),
      }
    }
    return pending ? 'pending' : null
  }

  /**
   * What the start of an utterance still being heard says, from its first PREFIX_MS of sound (`sound` from before
   * its first sample): `pending` until that much was heard, then the texts of every known clip that starts so
   * (empty when none does: a voice it does not know, or one an acoustic preset changed).
   */
  recogniseStart(sound: Int16Array): { pending: true } | { pending: false; texts: string[] } {
    const prefix = prefixFingerprintOf(sound)
    if (prefix === null) return { pending: true }
    const texts = new Set((this.#byPrefix.get(prefix) ?? []).map((clip) => clip.text))
    return { pending: false, texts: [...texts] }
  }

  /**
   * The known clip that `sound` (from before its first sample) is the beginning of, heard up to where its sound
   * ends: every whole content block of the sound is the clip's at the same position, the sound shorter than the
   * clip. Null when it is no clip's part (too short to tell, another clip's whole, or not the start of one).
   */
  partOf(sound: Int16Array): RecognisedPart | null {
    const extent = nonSilentExtent(sound)
    if (extent === null) return null
    const prefix = prefixFingerprintOf(sound)
    if (prefix === null) return null
    const content = contentOf(sound.subarray(extent.start, extent.end))
    const blocks = blockDigests(content)
    const clip = (this.#byPrefix.get(prefix) ?? []).find(
      (candidate) =>
        content.length < candidate.contentSamples &&
        blocks.every((digest, index) => candidate.blocks[index] === digest),
    )
    if (clip === undefined) return null
    const offsetMs = samplesToMs(extent.start - clip.leadingZeros)
    const heardUpToMs = samplesToMs(clip.leadingZeros + content.length)
    const said = captionsFor(clip.text, clip.speechStartMs, clip.speechEndMs)
      .filter((fragment) => fragment.end_ms <= heardUpToMs)
      .map((fragment) => fragment.delta)
      .join('')
    const startMs = Math.max(0, Math.floor(offsetMs + clip.speechStartMs))
    return {
      text: clip.text,
      saidText: said,
      startMs,
      endMs: Math.max(startMs + 1, Math.ceil(samplesToMs(extent.end))),
      blocks: blocks.length,
    }
  }

  /**
   * The known clip that `sound` (from before its first sample) begins with, whole, when more sound follows it (a
   * line and the next one with too short a pause between them to part them by silence): the clip placed like
   * `recognise` places it, and `endSample`, the index in `sound` after its last sample. Null when there is none.
   */
  leadingClip(sound: Int16Array): (Recognised & { endSample: number }) | null {
    const extent = nonSilentExtent(sound)
    const prefix = prefixFingerprintOf(sound)
    if (extent === null || prefix === null) return null
    const content = contentOf(sound.subarray(extent.start, extent.end))
    const blocks = blockDigests(content)
    for (const clip of this.#byPrefix.get(prefix) ?? []) {
      if (clip.contentSamples >= content.length) continue
      if (!clip.blocks.every((digest, index) => blocks[index] === digest)) continue
      if (contentFingerprint(content.subarray(0, clip.contentSamples)) !== clip.fingerprint) continue
      let endSample = extent.start
      for (let counted = 0; counted < clip.contentSamples; endSample++) if (sound[endSample] !== 0) counted++
      return { ...placed(clip, samplesToMs(extent.start - clip.leadingZeros), 'exact', 1), endSample }
    }
    return null
  }

  /**
   * The known clip that `sound` (from before its first sample) begins with, cut short (its speaker yielded the
   * floor), when other sound follows after a gap of digital silence too short to part them by silence: the part as
   * `partOf` gives it, and `endSample`, the index in `sound` where the gap after it begins. Null when the sound does
   * not begin so: it is one clip's part (partOf), begins with a whole clip (leadingClip), or is not known speech.
   */
  leadingPart(sound: Int16Array): (RecognisedPart & { endSample: number }) | null {
    const heard = new HeardSound(sound)
    // A part ends at a gap: sound with none inside it (most utterances) is spared the hashing below.
    const runs = heard.runs
    if (runs.length === 0) return null
    // A clip that lost a burst in place is one line (recognise hears it), not a part and something else.
    if (this.#withLoss(heard, 'whole') !== null) return null
    const prefix = heard.prefix
    const candidates = prefix === null ? [] : (this.#byPrefix.get(prefix) ?? [])
    if (candidates.length === 0) return null
    const { content, positions } = heard.content
    const sampleOf = (index: number) => (index < 0 ? -1 : (positions[index] as number))
    const blocks = blockDigests(content)
    for (const clip of candidates) {
      // Whole blocks the sound shares with the clip's start; the sound goes on with other content after them.
      let shared = 0
      while (shared < blocks.length && clip.blocks[shared] === blocks[shared]) shared++
      if (shared === blocks.length || shared >= clip.blocks.length) continue
      // The part ends inside the first block that differs, at a gap of silence that begins in it (the last such
      // gap: the synthetic voice has none of its own, so an earlier one is the relay's, inside the line).
      const from = sampleOf(shared * BLOCK_SAMPLES - 1) + 1
      const to = sampleOf(Math.min(content.length, (shared + 1) * BLOCK_SAMPLES) - 1) + 1
      const gap = runs.filter((run) => run.start >= from && run.start <= to).at(-1)
      if (gap === undefined) continue
      const part = this.partOf(sound.subarray(0, gap.start))
      if (part?.text === clip.text) return { ...part, endSample: gap.start }
    }
    return null
  }

  #nearest(envelope: Float64Array, extent: { start: number; end: number }): Recognised | null {
    const soundFrames = Math.ceil((extent.end - extent.start) / FRAME_SAMPLES)
    let best: { clip: Clip; offset: number; correlation: number } | null = null
    const bestByText = new Map<string, number>()
    for (const clip of this.#clips) {
      if (clip.envelope.length < soundFrames * MIN_COVERAGE) continue
      const match = bestAlignment(clip.envelope, envelope)
      if (match === null) continue
      bestByText.set(clip.text, Math.max(bestByText.get(clip.text) ?? -1, match.correlation))
      if (best === null || match.correlation > best.correlation) best = { clip, ...match }
    }
    if (best === null || best.correlation < MIN_ENVELOPE_CORRELATION) return null
    const winner = best
    const runnerUp = Math.max(
      -1,
      ...[...bestByText].filter(([text]) => text !== winner.clip.text).map(([, correlation]) => correlation),
    )
    if (winner.correlation - runnerUp < MIN_MARGIN) return null
    return placed(winner.clip, winner.offset * ENVELOPE_FRAME_MS, 'envelope', winner.correlation)
  }

  #forgetOldestSynthesised(): void {
    const index = this.#clips.findIndex((clip) => clip.synthesised)
    const [oldest] = this.#clips.splice(index, 1)
    for (const [fingerprint, clip] of this.#byFingerprint) {
      if (clip === oldest) this.#byFingerprint.delete(fingerprint)
    }
    if (oldest?.prefix != null) {
      const alike = (this.#byPrefix.get(oldest.prefix) ?? []).filter((clip) => clip !== oldest)
      if (alike.length === 0) this.#byPrefix.delete(oldest.prefix)
      else this.#byPrefix.set(oldest.prefix, alike)
    }
    this.#synthesised -= 1
  }
}

/**
 * What the catalogue reads of one sound, each worked out once and only when first asked for: leadingPart asks
 * #withLoss first and then reads the same runs, start and content itself.
 */
class HeardSound {
  readonly samples: Int16Array
  #runs: { start: number; end: number }[] | undefined
  #extent: { start: number; end: number } | null | undefined
  #prefix: string | null | undefined
  #content: { content: Int16Array; positions: Int32Array } | undefined

  constructor(samples: Int16Array) {
    this.samples = samples
  }

  /** Its runs of digital silence of MIN_PART_GAP_SAMPLES or more between its first and last sound. */
  get runs(): { start: number; end: number }[] {
    this.#runs ??= silentRuns(this.samples, MIN_PART_GAP_SAMPLES)
    return this.#runs
  }

  get extent(): { start: number; end: number } | null {
    if (this.#extent === undefined) this.#extent = nonSilentExtent(this.samples)
    return this.#extent
  }

  /** prefixFingerprintOf the sound. */
  get prefix(): string | null {
    if (this.#prefix === undefined) this.#prefix = prefixFingerprintOf(this.samples)
    return this.#prefix
  }

  get content(): { content: Int16Array; positions: Int32Array } {
    this.#content ??= contentWithPositions(this.samples)
    return this.#content
  }
}

function placed(clip: Clip, offsetMs: number, how: Recognised['how'], correlation: number): Recognised {
  const startMs = Math.max(0, Math.floor(offsetMs + clip.speechStartMs))
  const endMs = Math.max(startMs + 1, Math.ceil(offsetMs + clip.speechEndMs))
  return { text: clip.text, startMs, endMs, how, correlation, clipText: clip.text }
}

/** The digest of the first PREFIX_MS of samples that are not exactly zero; null when there are fewer. */
function prefixFingerprintOf(samples: Int16Array): string | null {
  const start = new Int16Array(PREFIX_SAMPLES)
  let filled = 0
  for (let i = 0; i < samples.length && filled < PREFIX_SAMPLES; i++) {
    const sample = samples[i] ?? 0
    if (sample !== 0) start[filled++] = sample
  }
  // `start` holds only content (no zero sample): digested as it is.
  return filled < PREFIX_SAMPLES ? null : contentFingerprint(start)
}

const samplesToMs = (samples: number) => (samples * 1000) / SAMPLE_RATE_HZ

/** Energy per 20 ms frame in dBFS, floored at FLOOR_DB. */
export function energyEnvelope(samples: Int16Array): Float64Array {
  const frames = Math.ceil(samples.length / FRAME_SAMPLES)
  const envelope = new Float64Array(frames)
  for (let frame = 0; frame < frames; frame++) {
    const from = frame * FRAME_SAMPLES
    const to = Math.min(samples.length, from + FRAME_SAMPLES)
    let sum = 0
    for (let i = from; i < to; i++) {
      const value = (samples[i] ?? 0) / 32_768
      sum += value * value
    }
    const db = 10 * Math.log10(sum / Math.max(1, to - from) + 1e-12)
    envelope[frame] = Math.max(FLOOR_DB, db)
  }
  return envelope
}

/**
 * The offset (in frames, into `sound`) where `clip` correlates best with `sound`, and that correlation. The clip
 * may hang over either end of the sound by a tenth of its length (a trimmed lead-in or tail).
 */
function bestAlignment(
  clip: Float64Array,
  sound: Float64Array,
): { offset: number; correlation: number } | null {
  const overhang = Math.floor(clip.length / 10)
  let best: { offset: number; correlation: number } | null = null
  for (let offset = -overhang; offset + clip.length <= sound.length + overhang; offset++) {
    const correlation = pearson(clip, sound, offset)
    if (correlation !== null && (best === null || correlation > best.correlation))
      best = { offset, correlation }
  }
  return best
}

/** Pearson correlation of `clip` against `sound` shifted by `offset` (frames outside the sound read as floor). */
function pearson(clip: Float64Array, sound: Float64Array, offset: number): number | null {
  let sumX = 0
  let sumY = 0
  let sumXX = 0
  let sumYY = 0
  let sumXY = 0
  let n = 0
  for (let i = 0; i < clip.length; i++) {
    const x = clip[i] ?? FLOOR_DB
    const y = sound[offset + i] ?? FLOOR_DB
    // A frame the sound lost (floored: a dropout, or silence) says nothing about which clip it is.
    if (y <= FLOOR_DB) continue
    n += 1
    sumX += x
    sumY += y
    sumXX += x * x
    sumYY += y * y
    sumXY += x * y
  }
  // Too little of the clip heard to tell.
  if (n < clip.length * MIN_COVERAGE * 0.5) return null
  const varianceX = sumXX - (sumX * sumX) / n
  const varianceY = sumYY - (sumY * sumY) / n
  if (varianceX <= 1e-9 || varianceY <= 1e-9) return null
  return (sumXY - (sumX * sumY) / n) / Math.sqrt(varianceX * varianceY)
}
