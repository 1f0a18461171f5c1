// PCM16 helpers for the GPT-Live transport format: signed 16-bit little-endian, mono, 24 kHz.
// Samples live as Int16Array in memory; bytes are always little-endian on the wire and on disk, whatever
// the host's byte order, so conversions go through DataView instead of reinterpreting the buffer.

export const SAMPLE_RATE_HZ = 24_000
export const BYTES_PER_SAMPLE = 2
/** Transport frame length: GPT-Live audio is paced in 20 ms frames. */
export const FRAME_MS = 20
/** 480 samples = 20 ms at 24 kHz. */
export const SAMPLES_PER_FRAME = (SAMPLE_RATE_HZ * FRAME_MS) / 1000

/**
 * True on a little-endian host (every platform Node ships for today): there an Int16Array's memory already is
 * PCM16 as the wire and WAV files carry it, so conversions are one block copy instead of a DataView call per
 * sample (those were several per cent of an offline run's CPU). The per-sample code stays for other hosts.
 */
export const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** The bytes of `samples` as they lie in memory (a view, not a copy). */
export function pcm16MemoryBytes(samples: Int16Array): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)
}

/** Decode little-endian PCM16 bytes. An odd byte count cannot be PCM16 and is refused. */
export function pcm16FromBytes(bytes: Uint8Array): Int16Array {
  if (bytes.byteLength % BYTES_PER_SAMPLE !== 0) {
    throw new Error(
      `PCM16 audio must have an even number of bytes (2 per sample); got ${bytes.byteLength}. ` +
        'The audio was truncated or is not 16-bit PCM.',
    )
  }
  if (!HOST_IS_LITTLE_ENDIAN) return pcm16FromBytesPortable(bytes)
  const samples = new Int16Array(bytes.byteLength / BYTES_PER_SAMPLE)
  pcm16MemoryBytes(samples).set(bytes) // a copy: `bytes` may be unaligned or reused by its owner
  return samples
}

/** Encode samples as little-endian PCM16 bytes. */
export function pcm16ToBytes(samples: Int16Array): Uint8Array {
  if (!HOST_IS_LITTLE_ENDIAN) return pcm16ToBytesPortable(samples)
  return pcm16MemoryBytes(samples).slice()
}

/** pcm16FromBytes on any host byte order, one sample at a time (exported to test the fast path against). */
export function pcm16FromBytesPortable(bytes: Uint8Array): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const samples = new Int16Array(Math.floor(bytes.byteLength / BYTES_PER_SAMPLE))
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * BYTES_PER_SAMPLE, true)
  return samples
}

/** pcm16ToBytes on any host byte order, one sample at a time (exported to test the fast path against). */
export function pcm16ToBytesPortable(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * BYTES_PER_SAMPLE)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < samples.length; i++) view.setInt16(i * BYTES_PER_SAMPLE, samples[i] ?? 0, true)
  return bytes
}

const PAD = 0x3d // '='

/**
 * What strict base64 of this length would decode to (standard alphabet, padded, no whitespace), or null when its
 * shape already rules it out: a length that is not a multiple of 4, a character outside ASCII (Node's decoder
 * reads one by its low byte: 'ī' is U+012B, taken for '+'), or the URL-safe letters '-' and '_', which it takes
 * too.
 */
function strictDecodedLength(text: string): number | null {
  const length = text.length
  if (length % 4 !== 0) return null
  if (Buffer.byteLength(text, 'utf8') !== length) return null
  if (text.includes('-') || text.includes('_')) return null
  const padding =
    length > 0 && text.charCodeAt(length - 1) === PAD ? (text.charCodeAt(length - 2) === PAD ? 2 : 1) : 0
  return (length / 4) * 3 - padding
}

/** Decoding room reused by strictBase64ByteLength (it only counts; the bytes are not kept). */
let scratch = Buffer.allocUnsafe(16 * 1024)

/**
 * Decoded length of strict base64 (standard alphabet, padded, no whitespace), or null when `text` is not.
 * Checked by Node's own decoder, which skips any character outside the alphabet (whitespace, '!', 'é', an '='
 * before the end): each one skipped leaves fewer bytes than the text's length promises, so strict base64 is
 * exactly the text whose decoded length is the promised one. Native decoding runs over every audio event on
 * both sides of the offline socket, several times faster than a look-up per character in JavaScript; it also
 * never backtracks (a regular expression overflowed the stack on a 4.3 M character payload).
 */
export function strictBase64ByteLength(text: string): number | null {
  const expected = strictDecodedLength(text)
  if (expected === null) return null
  if (scratch.length < expected + 3) scratch = Buffer.allocUnsafe(expected + 3)
  return scratch.write(text, 'base64') === expected ? expected : null
}

/**
 * True when `text` is strict base64 (standard alphabet, padded). Node's decoder silently skips invalid
 * characters, which would turn a corrupted payload into plausible-looking noise, so check this before decoding.
 */
export function isStrictBase64(text: string): boolean {
  return strictBase64ByteLength(text) !== null
}

/** Base64 of the PCM16 bytes, as carried by protocol audio fields. */
export function pcm16ToBase64(samples: Int16Array): string {
  if (!HOST_IS_LITTLE_ENDIAN) return Buffer.from(pcm16ToBytesPortable(samples)).toString('base64')
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64')
}

/** Decode protocol base64 audio; anything but strict base64 is refused (see strictBase64ByteLength). */
export function pcm16FromBase64(base64: string): Int16Array {
  // One decode that is also the check: the bytes are the promised number only for strict base64.
  const expected = strictDecodedLength(base64)
  const bytes = expected === null ? null : Buffer.from(base64, 'base64')
  if (bytes === null || bytes.length !== expected) {
    throw new Error('Audio payload is not valid base64 (standard alphabet, padded); the event is malformed.')
  }
  return pcm16FromBytes(bytes)
}

/** The one double below 0.5: the only value where floor(x + 0.5) and Math.round(x) differ (x + 0.5 rounds to 1). */
const LARGEST_BELOW_HALF = 0.49999999999999994

/**
 * Math.round(x) for |x| < 2^52 (audio sums stay below 2^20), for the per-sample loops. V8 compiles Math.round to
 * a compare-and-branch on the fraction, which noise and speech make unpredictable (it took two thirds of the
 * white-noise loop); floor(x + 0.5) is one rounding instruction. In that range x + 0.5 is exact, and so equal
 * to Math.round, for every double but one, which the comparison (always false, so always predicted) handles.
 * The bytes are the same.
 */
export function roundHalfUp(x: number): number {
  return x === LARGEST_BELOW_HALF ? 0 : Math.floor(x + 0.5)
}

/** Number of samples in `ms` milliseconds at `sampleRateHz` (rounded to the nearest sample). */
export function samplesForMs(ms: number, sampleRateHz: number = SAMPLE_RATE_HZ): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`Audio duration must be a finite number >= 0 ms; got ${ms}`)
  return Math.round((ms * sampleRateHz) / 1000)
}

/** Duration in milliseconds of `sampleCount` samples (exact, may be fractional). */
export function durationMs(sampleCount: number, sampleRateHz: number = SAMPLE_RATE_HZ): number {
  return (sampleCount * 1000) / sampleRateHz
}

/** Digital silence lasting `ms` milliseconds. */
export function silence(ms: number, sampleRateHz: number = SAMPLE_RATE_HZ): Int16Array {
  return new Int16Array(samplesForMs(ms, sampleRateHz))
}

/** Join chunks end to end into one new array. */
export function concatPcm16(chunks: readonly Int16Array[]): Int16Array {
  let total = 0
  for (const chunk of chunks) total += chunk.length
  const out = new Int16Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

export interface SplitFramesOptions {
  /** Samples per frame; 480 (20 ms at 24 kHz) by default. */
  samplesPerFrame?: number
  /**
   * What to do with a trailing partial frame. `pad` (default) fills it with silence so every frame sent
   * on the wire has the same length and the pacing clock advances by exactly one frame per send; the
   * added silence is under one frame (< 20 ms) and reads as the quiet start of the response wait.
   * `keep` returns the short frame as is (for consumers that must not change the sample count).
   */
  lastFrame?: 'pad' | 'keep'
}

/** Split audio into consecutive frames (views are copied, so frames never alias the input). */
export function splitFrames(samples: Int16Array, options: SplitFramesOptions = {}): Int16Array[] {
  const size = options.samplesPerFrame ?? SAMPLES_PER_FRAME
  if (!Number.isInteger(size) || size <= 0) {
    throw new Error(`samplesPerFrame must be a positive integer; got ${size}`)
  }
  const frames: Int16Array[] = []
  for (let start = 0; start < samples.length; start += size) {
    const end = Math.min(start + size, samples.length)
    if (end - start === size || options.lastFrame === 'keep') {
      frames.push(samples.slice(start, end))
    } else {
      const padded = new Int16Array(size)
      padded.set(samples.subarray(start, end))
      frames.push(padded)
    }
  }
  return frames
}
