// WAV reading, validation and writing. The harness streams exactly what a recording holds, so a WAV is
// accepted only in the transport format (mono, 16-bit PCM, 24000 Hz) and is never converted silently:
// a wrong file is a clear error that names the file, every problem found and what to do.
// wavefile parses the container; samples are decoded by our own little-endian reader (faster, and the
// byte count is checked against the header because wavefile accepts truncated files silently).

import wavefile from 'wavefile'
import { z } from 'zod'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  readInputFile,
} from '../inputs/read-input-file.ts'
import {
  BYTES_PER_SAMPLE,
  durationMs,
  HOST_IS_LITTLE_ENDIAN,
  pcm16FromBytes,
  pcm16MemoryBytes,
  SAMPLE_RATE_HZ,
} from './pcm.ts'

const { WaveFile } = wavefile

const WAVE_FORMAT_PCM = 1
const WAVE_FORMAT_EXTENSIBLE = 0xfffe
/** First 32-bit word of the KSDATAFORMAT_SUBTYPE_PCM GUID used by WAVE_FORMAT_EXTENSIBLE files. */
const EXTENSIBLE_PCM_SUBFORMAT = 1

// wavefile types its parsed chunks as `object`; these schemas give them checked types at the boundary.
export const FormatChunk = z.looseObject({
  audioFormat: z.number(),
  numChannels: z.number(),
  sampleRate: z.number(),
  bitsPerSample: z.number(),
  blockAlign: z.number(),
  subformat: z.array(z.number()).optional(),
})
const DataChunk = z.looseObject({
  chunkSize: z.number(),
  samples: z.instanceof(Uint8Array),
})

export const WAV_CONVERT_HINT =
  'Convert it to mono 16-bit PCM at 24000 Hz (for example: sox in.wav -c 1 -b 16 -r 24000 out.wav).'

/** A WAV file that cannot be used as transport audio; `problems` lists every reason found. */
export class WavFormatError extends Error {
  readonly file: string
  readonly problems: readonly string[]

  constructor(file: string, problems: readonly string[]) {
    super(`WAV file ${file}: ${problems.join('; ')}. ${WAV_CONVERT_HINT}`)
    this.name = 'WavFormatError'
    this.file = file
    this.problems = problems
  }
}

export interface DecodedWav {
  /** Mono PCM16 samples at 24000 Hz. */
  samples: Int16Array
  sampleRateHz: number
  durationMs: number
}

/** The parsed container: its format chunk and data payload, the container and chunk sizes checked. */
function parseWav(
  bytes: Uint8Array,
  file: string,
): { fmt: z.infer<typeof FormatChunk>; payload: Uint8Array } {
  const wav = new WaveFile()
  try {
    wav.fromBuffer(bytes, true)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new WavFormatError(file, [`is not a readable RIFF/WAVE file (${reason})`])
  }
  if (wav.container !== 'RIFF') {
    throw new WavFormatError(file, [
      `must be a RIFF/WAVE file; its container is ${wav.container || 'unknown'}`,
    ])
  }
  const fmt = FormatChunk.safeParse(wav.fmt)
  const data = DataChunk.safeParse(wav.data)
  if (!fmt.success || !data.success) {
    throw new WavFormatError(file, ['has no usable "fmt " or "data" chunk'])
  }
  const { chunkSize, samples: payload } = data.data
  const sizeProblem = dataSizeProblem(chunkSize, payload.byteLength)
  if (sizeProblem !== null) throw new WavFormatError(file, [sizeProblem])
  return { fmt: fmt.data, payload }
}

/**
 * Parse and validate WAV bytes. `file` names the source in errors (a path or a label such as
 * "scenario X recording"). Throws WavFormatError unless the audio is non-empty mono 16-bit PCM at 24000 Hz.
 */
export function decodeMonoWav(bytes: Uint8Array, file: string): DecodedWav {
  const { fmt, payload } = parseWav(bytes, file)
  const problems = formatProblems(fmt)
  if (problems.length > 0) throw new WavFormatError(file, problems)
  const samples = pcm16FromBytes(payload)
  return { samples, sampleRateHz: SAMPLE_RATE_HZ, durationMs: durationMs(samples.length) }
}

export interface DecodedChannels {
  /** One PCM16 array per channel, de-interleaved, at the file's own rate. */
  channels: Int16Array[]
  sampleRateHz: number
  durationMs: number
}

/**
 * WAV bytes of any channel count and sample rate, as long as they are uncompressed 16-bit PCM (a recorded call is
 * often stereo at 8 kHz): the channels de-interleaved. Converting is the caller's decision, never silent here.
 */
export function decodePcm16Channels(bytes: Uint8Array, file: string): DecodedChannels {
  const { fmt, payload } = parseWav(bytes, file)
  const problems = formatProblems(fmt).filter(
    (problem) => !problem.startsWith('must be mono') && !problem.startsWith('must be 24000 Hz'),
  )
  const blockAlign = fmt.numChannels * BYTES_PER_SAMPLE
  if (problems.length === 0 && (fmt.numChannels < 1 || fmt.blockAlign !== blockAlign)) {
    problems.push(`has an inconsistent block alignment (${fmt.blockAlign} for ${fmt.numChannels} channels)`)
  }
  if (problems.length === 0 && (fmt.sampleRate < 1000 || fmt.sampleRate > 192_000)) {
    problems.push(`has an unusable sample rate (${fmt.sampleRate} Hz)`)
  }
  if (problems.length === 0 && payload.byteLength % blockAlign !== 0) {
    problems.push(
      `ends inside a sample frame (${payload.byteLength} data bytes for ${fmt.numChannels} channels)`,
    )
  }
  if (problems.length > 0) throw new WavFormatError(file, problems)
  const interleaved = pcm16FromBytes(payload)
  const frames = interleaved.length / fmt.numChannels
  const channels = Array.from({ length: fmt.numChannels }, () => new Int16Array(frames))
  for (let frame = 0, at = 0; frame < frames; frame++) {
    for (const channel of channels) channel[frame] = interleaved[at++] as number
  }
  return { channels, sampleRateHz: fmt.sampleRate, durationMs: (frames * 1000) / fmt.sampleRate }
}

/** Read a WAV file from disk and validate it as transport audio (see decodeMonoWav). */
export async function readMonoWavFile(path: string): Promise<DecodedWav> {
  let bytes: Uint8Array
  try {
    bytes = await readInputFile(path, INPUT_FILE_CAPS.recording)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    throw new Error(
      `WAV file ${path} ${describeInputFileRefusal(error.refusal)}; check the recording path (it resolves from the dataset file).`,
    )
  }
  return decodeMonoWav(bytes, path)
}

/** Streaming writers that never come back to fill in the size leave one of these (espeak-ng --stdout: 0x7ffff000). */
const PLACEHOLDER_DATA_SIZE = 0x7fff_0000

/**
 * Why a data chunk declaring `declared` bytes, of which `present` exist, is unusable; null when it is fine.
 * Shared with the streaming reader so both say the same thing about the same file.
 */
export function dataSizeProblem(declared: number, present: number): string | null {
  if (declared >= PLACEHOLDER_DATA_SIZE && present < declared) {
    return (
      `was streamed without final sizes: its header declares a placeholder of ${declared} data bytes ` +
      `but ${present} are present`
    )
  }
  if (present !== declared) {
    return `is truncated: its header declares ${declared} data bytes but ${present} are present`
  }
  if (present % BYTES_PER_SAMPLE !== 0)
    return `has an odd number of data bytes (${present}) for 16-bit samples`
  if (present === 0) return 'has no audio (its data chunk is empty)'
  return null
}

/** Every reason a format chunk is not the transport format (mono 16-bit PCM at 24000 Hz); empty when it is. */
export function formatProblems(fmt: z.infer<typeof FormatChunk>): string[] {
  const problems: string[] = []
  const isPcm =
    fmt.audioFormat === WAVE_FORMAT_PCM ||
    (fmt.audioFormat === WAVE_FORMAT_EXTENSIBLE && fmt.subformat?.[0] === EXTENSIBLE_PCM_SUBFORMAT)
  if (!isPcm) problems.push(`must be uncompressed PCM (its format code is ${fmt.audioFormat})`)
  if (fmt.numChannels !== 1) problems.push(`must be mono (it has ${fmt.numChannels} channels)`)
  if (fmt.bitsPerSample !== 16) problems.push(`must be 16-bit (it is ${fmt.bitsPerSample}-bit)`)
  if (fmt.sampleRate !== SAMPLE_RATE_HZ) problems.push(`must be 24000 Hz (it is ${fmt.sampleRate} Hz)`)
  if (problems.length === 0 && fmt.blockAlign !== BYTES_PER_SAMPLE) {
    problems.push(`has an inconsistent block alignment (${fmt.blockAlign}; mono 16-bit needs 2)`)
  }
  return problems
}

/** WAV bytes (RIFF, PCM16) for one channel. */
export function encodeMonoWav(samples: Int16Array, sampleRateHz: number = SAMPLE_RATE_HZ): Uint8Array {
  return encodePcm16Wav([samples], sampleRateHz)
}

/** WAV bytes (RIFF, PCM16) for two channels of equal length: left first, as WAV interleaves them. */
export function encodeStereoWav(
  left: Int16Array,
  right: Int16Array,
  sampleRateHz: number = SAMPLE_RATE_HZ,
): Uint8Array {
  if (left.length !== right.length) {
    throw new Error(
      `Stereo WAV channels must have the same length; left has ${left.length} samples, right ${right.length}. ` +
        'Pad the shorter channel with silence first.',
    )
  }
  return encodePcm16Wav([left, right], sampleRateHz)
}

export const WAV_HEADER_BYTES = 44

/** The canonical 44-byte RIFF header: one PCM `fmt ` chunk, then the `data` chunk header for `dataBytes`. */
export function pcm16WavHeader(channels: number, sampleRateHz: number, dataBytes: number): Uint8Array {
  const bytes = new Uint8Array(WAV_HEADER_BYTES)
  const view = new DataView(bytes.buffer)
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i))
  }
  const blockAlign = channels * BYTES_PER_SAMPLE
  ascii(0, 'RIFF')
  view.setUint32(4, WAV_HEADER_BYTES - 8 + dataBytes, true)
  ascii(8, 'WAVE')
  ascii(12, 'fmt ')
  view.setUint32(16, 16, true)
  view.setUint16(20, WAVE_FORMAT_PCM, true)
  view.setUint16(22, channels, true)
  view.setUint32(24, sampleRateHz, true)
  view.setUint32(28, sampleRateHz * blockAlign, true)
  view.setUint16(32, blockAlign, true)
  view.setUint16(34, 16, true)
  ascii(36, 'data')
  view.setUint32(40, dataBytes, true)
  return bytes
}

/**
 * The header and the interleaved little-endian samples. Written directly: wavefile's generic per-sample packer
 * took about ten times longer and was most of an offline run's CPU; the bytes are the same. On a little-endian
 * host the samples are block-copied (mono) or interleaved through an Int16Array view (stereo).
 */
function encodePcm16Wav(channels: readonly Int16Array[], sampleRateHz: number): Uint8Array {
  if (!HOST_IS_LITTLE_ENDIAN) return encodePcm16WavPortable(channels, sampleRateHz)
  const frameCount = channels[0]?.length ?? 0
  const dataBytes = frameCount * channels.length * BYTES_PER_SAMPLE
  const bytes = new Uint8Array(WAV_HEADER_BYTES + dataBytes)
  bytes.set(pcm16WavHeader(channels.length, sampleRateHz, dataBytes))
  const [first, second] = channels
  if (channels.length === 1 && first !== undefined) {
    bytes.set(pcm16MemoryBytes(first), WAV_HEADER_BYTES)
    return bytes
  }
  const out = new Int16Array(bytes.buffer, WAV_HEADER_BYTES, frameCount * channels.length)
  if (channels.length === 2 && first !== undefined && second !== undefined) {
    for (let frame = 0, at = 0; frame < frameCount; frame++, at += 2) {
      out[at] = first[frame] as number
      out[at + 1] = second[frame] as number
    }
    return bytes
  }
  let at = 0
  for (let frame = 0; frame < frameCount; frame++) {
    for (const channel of channels) out[at++] = channel[frame] ?? 0
  }
  return bytes
}

/** encodePcm16Wav on any host byte order, one DataView write per sample (exported to test the fast path). */
export function encodePcm16WavPortable(channels: readonly Int16Array[], sampleRateHz: number): Uint8Array {
  const frameCount = channels[0]?.length ?? 0
  const dataBytes = frameCount * channels.length * BYTES_PER_SAMPLE
  const bytes = new Uint8Array(WAV_HEADER_BYTES + dataBytes)
  bytes.set(pcm16WavHeader(channels.length, sampleRateHz, dataBytes))
  const view = new DataView(bytes.buffer)
  let offset = WAV_HEADER_BYTES
  for (let frame = 0; frame < frameCount; frame++) {
    for (const channel of channels) {
      view.setInt16(offset, channel[frame] ?? 0, true)
      offset += BYTES_PER_SAMPLE
    }
  }
  return bytes
}
