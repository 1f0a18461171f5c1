// Deterministic synthetic "speech" for offline mode. The offline GPT-Live server cannot recognise words
// (its hearing is an explicit oracle), so what matters is that the audio behaves like speech for every
// audio-derived measurement: it is voiced (periodic, harmonic-rich), has a syllable-rate envelope, its
// duration grows with the text, and the same text always yields the same samples bit for bit.
//
// Model: a Rosenberg-style glottal pulse train (rich in harmonics, like a real voice source) whose pitch
// follows a gentle text-seeded contour, shaped by four cascaded formant resonators, the first two of which
// change per syllable (a different "vowel" each time), under a raised-cosine syllable envelope. Only integer
// PRNG state and IEEE arithmetic are used, so the output is reproducible on any platform running V8.
import { roundHalfUp, SAMPLE_RATE_HZ, samplesForMs } from './pcm.ts'
import { readSyntheticSpeech, writeSyntheticSpeech } from './synthetic-voice-disk-cache.ts'

export const SYNTHETIC_MS_PER_CHARACTER = 65
export const SYNTHETIC_MIN_DURATION_MS = 300
/** Peak level of the normalised output, as a fraction of full scale (about -6 dBFS): loud, never clipped. */
const PEAK_FRACTION = 0.5
/** Average syllable length; about 5 syllables per second is ordinary conversational speech. */
const SYLLABLE_MS = 190
/** Fade at each end so the signal starts and stops without a click. */
const EDGE_FADE_MS = 15
/** The envelope never drops below this inside the utterance, so syllable dips do not read as pauses. */
const ENVELOPE_FLOOR = 0.35

export interface SyntheticSpeechOptions {
  /** Output sample rate; the transport rate 24000 Hz by default. */
  sampleRateHz?: number
}

/** Duration of the synthetic speech for `text`, in milliseconds. */
export function syntheticSpeechDurationMs(text: string): number {
  return Math.max(SYNTHETIC_MIN_DURATION_MS, [...text].length * SYNTHETIC_MS_PER_CHARACTER)
}

/**
 * Most synthetic speech already synthesised, by sample rate and text: offline runs say the same lines again
 * and again (each scenario under both architectures, the RUN rehearsal and the call it times, the offline
 * server's fixed replies), and synthesis was a tenth of an offline CRAWL's CPU. Bounded by samples held. Behind
 * it, the files of earlier processes (synthetic-voice-disk-cache.ts).
 */
let cacheMaxSamples = 8_000_000
const cache = new Map<string, Int16Array>()
let cachedSamples = 0

/**
 * Deterministic voiced audio (mono PCM16) whose length is proportional to `text`. Each call returns its own
 * copy: callers may change it without touching what the next caller gets.
 */
export function syntheticSpeech(text: string, options: SyntheticSpeechOptions = {}): Int16Array {
  const sampleRateHz = options.sampleRateHz ?? SAMPLE_RATE_HZ
  if (!Number.isInteger(sampleRateHz) || sampleRateHz < 8_000) {
    throw new Error(`syntheticSpeech: sampleRateHz must be an integer >= 8000, got ${sampleRateHz}`)
  }
  const key = `${sampleRateHz}:${text}`
  let samples = cache.get(key)
  if (samples === undefined) {
    const sampleCount = samplesForMs(syntheticSpeechDurationMs(text), sampleRateHz)
    samples = readSyntheticSpeech(text, sampleRateHz, sampleCount) ?? synthesiseAndKeep(text, sampleRateHz)
    remember(key, samples)
  } else {
    // Least recently used goes first: a hit moves to the end of the insertion order.
    cache.delete(key)
    cache.set(key, samples)
  }
  return samples.slice()
}

/** Synthesised, and kept on disk for the next process (synthetic-voice-disk-cache.ts). */
function synthesiseAndKeep(text: string, sampleRateHz: number): Int16Array {
  const samples = synthesise(text, sampleRateHz)
  writeSyntheticSpeech(text, sampleRateHz, samples)
  return samples
}

function remember(key: string, samples: Int16Array): void {
  if (samples.length > cacheMaxSamples) return
  cache.set(key, samples)
  cachedSamples += samples.length
  for (const [oldest, held] of cache) {
    if (cachedSamples <= cacheMaxSamples) break
    cache.delete(oldest)
    cachedSamples -= held.length
  }
}

/** What the synthesis cache holds, oldest key (`rate:text`) first (for tests of its bound). */
export function syntheticSpeechCacheStats(): {
  entries: number
  keys: string[]
  samples: number
  maxSamples: number
} {
  return { entries: cache.size, keys: [...cache.keys()], samples: cachedSamples, maxSamples: cacheMaxSamples }
}

/** Sets the cache's bound in samples (tests); returns the previous one. Emptied so the bound holds at once. */
export function setSyntheticSpeechCacheLimit(maxSamples: number): number {
  const previous = cacheMaxSamples
  cacheMaxSamples = maxSamples
  cache.clear()
  cachedSamples = 0
  return previous
}

/**
 * The unscaled samples' room, reused from one synthesis to the next (synthesis is synchronous): a long line is
 * megabytes of float64, and allocating it for every line was most of the synthetic voice's garbage.
 */
let rawRoom = new Float64Array(0)

function synthesise(text: string, sampleRateHz: number): Int16Array {
  const durationMs = syntheticSpeechDurationMs(text)
  const sampleCount = samplesForMs(durationMs, sampleRateHz)
  const random = mulberry32(fnv1a(text))
  const syllables = planSyllables(sampleCount, sampleRateHz, random)

  if (rawRoom.length < sampleCount) rawRoom = new Float64Array(sampleCount)
  const raw = rawRoom.subarray(0, sampleCount)
  const basePitchHz = 105 + random() * 70
  let phase = 0
  const formant1 = new Resonator()
  const formant2 = new Resonator()
  const formant3 = new Resonator()
  formant3.tune(2400 + random() * 400, 160, sampleRateHz)
  const formant4 = new Resonator()
  formant4.tune(3300 + random() * 400, 250, sampleRateHz)
  const fadeSamples = Math.max(1, samplesForMs(EDGE_FADE_MS, sampleRateHz))

  // Syllables are contiguous and visited in order, so each is walked sample by sample; the arithmetic is the
  // same expression for expression as it always was (the pinned fingerprints depend on every bit). The fade is
  // only computed near the ends: in between it is exactly 1, and multiplying by 1 changes no bit.
  const fadeOutFrom = sampleCount - 1 - fadeSamples
  let n = 0
  for (const syllable of syllables) {
    formant1.tune(syllable.formant1Hz, 90, sampleRateHz)
    formant2.tune(syllable.formant2Hz, 120, sampleRateHz)
    const { start, length, pitchScale } = syllable
    const end = Math.min(sampleCount, start + length)
    for (; n < end; n++) {
      const progress = (n - start) / length
      // Pitch falls slightly across each syllable and over the utterance, as declarative speech does.
      const pitchHz = basePitchHz * pitchScale * (1.04 - 0.08 * progress) * (1 - (0.1 * n) / sampleCount)
      phase += pitchHz / sampleRateHz
      if (phase >= 1) phase -= 1
      const source = glottalPulseDerivative(phase)
      const voiced = formant4.step(formant3.step(formant2.step(formant1.step(source))))
      const syllableEnvelope = ENVELOPE_FLOOR + (1 - ENVELOPE_FLOOR) * Math.sin(Math.PI * progress) ** 2
      if (n >= fadeSamples && n <= fadeOutFrom) raw[n] = voiced * syllableEnvelope
      else
        raw[n] = voiced * syllableEnvelope * Math.min(1, n / fadeSamples, (sampleCount - 1 - n) / fadeSamples)
    }
  }
  // The syllables tile the utterance, so every sample of the reused room was written above.
  if (n !== sampleCount) throw new Error(`synthetic voice: wrote ${n} of ${sampleCount} samples`)
  return normaliseToPcm16(raw)
}

interface Syllable {
  start: number
  length: number
  pitchScale: number
  formant1Hz: number
  formant2Hz: number
}

/** Vowel-like formant pairs (F1, F2) in Hz, roughly /a/, /e/, /i/, /o/, /u/. */
const VOWELS: readonly (readonly [number, number])[] = [
  [730, 1090],
  [530, 1840],
  [300, 2290],
  [570, 840],
  [320, 870],
]

function planSyllables(sampleCount: number, sampleRateHz: number, random: () => number): Syllable[] {
  const syllables: Syllable[] = []
  let start = 0
  while (start < sampleCount) {
    const lengthMs = SYLLABLE_MS * (0.7 + 0.6 * random())
    let length = Math.max(1, samplesForMs(lengthMs, sampleRateHz))
    // Fold a short remainder into the last syllable instead of leaving a stub.
    if (sampleCount - (start + length) < length / 2) length = sampleCount - start
    const vowel = VOWELS[Math.floor(random() * VOWELS.length)] ?? VOWELS[0]
    syllables.push({
      start,
      length,
      pitchScale: 0.92 + 0.16 * random(),
      formant1Hz: vowel?.[0] ?? 700,
      formant2Hz: vowel?.[1] ?? 1200,
    })
    start += length
  }
  return syllables
}

/**
 * Derivative of a Rosenberg glottal pulse (opening 40 % of the period, closing 8 %, then closed):
 * the abrupt closure gives the slowly decaying harmonic series of a real voice source.
 */
function glottalPulseDerivative(phase: number): number {
  const open = 0.4
  const close = 0.08
  if (phase < open) return Math.sin((Math.PI * phase) / open) * (Math.PI / (2 * open))
  if (phase < open + close)
    return -Math.sin((Math.PI * (phase - open)) / (2 * close)) * (Math.PI / (2 * close))
  return 0
}

/** Two-pole resonator (a formant). */
class Resonator {
  private a1 = 0
  private a2 = 0
  private gain = 0
  private y1 = 0
  private y2 = 0

  tune(centreHz: number, bandwidthHz: number, sampleRateHz: number): void {
    const r = Math.exp((-Math.PI * bandwidthHz) / sampleRateHz)
    const theta = (2 * Math.PI * centreHz) / sampleRateHz
    this.a1 = 2 * r * Math.cos(theta)
    this.a2 = -r * r
    // Unity gain at 0 Hz (Klatt's cascade form): chained resonators then boost each formant peak by
    // roughly its centre frequency over its bandwidth, which shapes a natural vowel spectrum.
    this.gain = 1 - this.a1 - this.a2
  }

  step(input: number): number {
    const y = this.gain * input + this.a1 * this.y1 + this.a2 * this.y2
    this.y2 = this.y1
    this.y1 = y
    return y
  }
}

function normaliseToPcm16(raw: Float64Array): Int16Array {
  let peak = 0
  for (let i = 0; i < raw.length; i++) {
    const magnitude = Math.abs(raw[i] as number)
    if (magnitude > peak) peak = magnitude
  }
  const out = new Int16Array(raw.length)
  if (peak === 0) return out
  const scale = (PEAK_FRACTION * 32767) / peak
  // roundHalfUp: Math.round, without the branch speech makes unpredictable (same bytes).
  for (let i = 0; i < raw.length; i++) out[i] = roundHalfUp((raw[i] as number) * scale)
  return out
}

/** 32-bit FNV-1a over the UTF-16 code units: a stable seed per text. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** Small seeded PRNG with integer state (mulberry32): same seed, same sequence, everywhere. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
