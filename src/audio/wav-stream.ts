// WAV files read and written a chunk at a time, so a long recording never sits in memory whole (ten minutes of
// 24 kHz PCM16 is 28.8 MB as bytes, and wavefile would also build a 115 MB float copy). The reader parses the
// RIFF chunk list itself with positional reads and applies exactly the checks of wav.ts (same messages); the
// writer fills in the sizes when it closes and renames a private temporary file into place, so a reader never
// sees a half-written WAV with placeholder sizes.

import { type FileHandle, open, rename, rm } from 'node:fs/promises'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  openInputFile,
} from '../inputs/read-input-file.ts'
import { BYTES_PER_SAMPLE, pcm16FromBytes, SAMPLE_RATE_HZ } from './pcm.ts'
import { dataSizeProblem, formatProblems, pcm16WavHeader, WAV_HEADER_BYTES, WavFormatError } from './wav.ts'

const RIFF_HEADER_BYTES = 12
const CHUNK_HEADER_BYTES = 8
/** A WAV has a handful of chunks; a list longer than this is not a recording, so stop looking. */
const MAX_CHUNKS = 256
const MAX_DATA_BYTES = 0xffff_ffff - (WAV_HEADER_BYTES - 8)

export interface MonoWavStreamInfo {
  sampleCount: number
  durationMs: number
}

/** A validated mono 16-bit 24 kHz WAV, read in chunks. Close it (or `await using`) when done. */
export class MonoWavReader {
  readonly file: string
  readonly info: MonoWavStreamInfo
  readonly #handle: FileHandle
  readonly #dataOffset: number
  #closed = false

  private constructor(file: string, handle: FileHandle, dataOffset: number, sampleCount: number) {
    this.file = file
    this.#handle = handle
    this.#dataOffset = dataOffset
    this.info = { sampleCount, durationMs: (sampleCount * 1000) / SAMPLE_RATE_HZ }
  }

  /** Open and validate `file`; throws WavFormatError (naming the file) exactly as decodeMonoWav would. */
  static async open(file: string): Promise<MonoWavReader> {
    let handle: FileHandle
    try {
      handle = await openInputFile(file, INPUT_FILE_CAPS.streamed_recording)
    } catch (error) {
      if (!(error instanceof InputFileError)) throw error
      throw new Error(
        `WAV file ${file} ${describeInputFileRefusal(error.refusal)}; check the recording path.`,
      )
    }
    try {
      const { dataOffset, dataBytes } = await locateData(handle, file)
      return new MonoWavReader(file, handle, dataOffset, dataBytes / BYTES_PER_SAMPLE)
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  /** The samples in order, `samplesPerChunk` at a time (the last chunk may be shorter). */
  async *chunks(samplesPerChunk: number): AsyncGenerator<Int16Array> {
    if (!Number.isInteger(samplesPerChunk) || samplesPerChunk <= 0) {
      throw new Error(`samplesPerChunk must be a positive integer; got ${samplesPerChunk}`)
    }
    const buffer = new Uint8Array(samplesPerChunk * BYTES_PER_SAMPLE)
    const total = this.info.sampleCount
    for (let start = 0; start < total; start += samplesPerChunk) {
      const count = Math.min(samplesPerChunk, total - start)
      const bytes = buffer.subarray(0, count * BYTES_PER_SAMPLE)
      await readExactly(this.#handle, bytes, this.#dataOffset + start * BYTES_PER_SAMPLE, this.file)
      yield pcm16FromBytes(bytes)
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#handle.close()
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }
}

async function locateData(
  handle: FileHandle,
  file: string,
): Promise<{ dataOffset: number; dataBytes: number }> {
  const { size } = await handle.stat()
  const riff = new Uint8Array(RIFF_HEADER_BYTES)
  const got = (await handle.read(riff, 0, RIFF_HEADER_BYTES, 0)).bytesRead
  const container = ascii(riff, 0)
  if (got < RIFF_HEADER_BYTES || ascii(riff, 8) !== 'WAVE' || !['RIFF', 'RIFX', 'RF64'].includes(container)) {
    throw new WavFormatError(file, ['is not a readable RIFF/WAVE file (no RIFF/WAVE header)'])
  }
  if (container !== 'RIFF') {
    throw new WavFormatError(file, [`must be a RIFF/WAVE file; its container is ${container}`])
  }
  let fmtProblems: string[] | null = null
  let position = RIFF_HEADER_BYTES
  const header = new Uint8Array(CHUNK_HEADER_BYTES)
  for (let chunk = 0; chunk < MAX_CHUNKS && position + CHUNK_HEADER_BYTES <= size; chunk++) {
    await readExactly(handle, header, position, file)
    const id = ascii(header, 0)
    const chunkBytes = new DataView(header.buffer).getUint32(4, true)
    const body = position + CHUNK_HEADER_BYTES
    if (id === 'fmt ')
      fmtProblems = formatProblems(await readFormat(handle, body, Math.min(chunkBytes, 40), file))
    if (id === 'data') {
      if (fmtProblems === null) throw new WavFormatError(file, ['has no usable "fmt " or "data" chunk'])
      if (fmtProblems.length > 0) throw new WavFormatError(file, fmtProblems)
      const present = Math.min(chunkBytes, size - body)
      const problem = dataSizeProblem(chunkBytes, present)
      if (problem !== null) throw new WavFormatError(file, [problem])
      return { dataOffset: body, dataBytes: chunkBytes }
    }
    position = body + chunkBytes + (chunkBytes & 1)
  }
  throw new WavFormatError(file, ['has no usable "fmt " or "data" chunk'])
}

async function readFormat(handle: FileHandle, offset: number, length: number, file: string) {
  if (length < 16) throw new WavFormatError(file, ['has no usable "fmt " or "data" chunk'])
  const bytes = new Uint8Array(length)
  await readExactly(handle, bytes, offset, file)
  const view = new DataView(bytes.buffer)
  const hasSubformat = length >= 28 && view.getUint16(16, true) >= 22
  return {
    audioFormat: view.getUint16(0, true),
    numChannels: view.getUint16(2, true),
    sampleRate: view.getUint32(4, true),
    blockAlign: view.getUint16(12, true),
    bitsPerSample: view.getUint16(14, true),
    subformat: hasSubformat ? [view.getUint32(24, true)] : undefined,
  }
}

async function readExactly(
  handle: FileHandle,
  into: Uint8Array,
  position: number,
  file: string,
): Promise<void> {
  let filled = 0
  while (filled < into.length) {
    const { bytesRead } = await handle.read(into, filled, into.length - filled, position + filled)
    if (bytesRead === 0) throw new WavFormatError(file, ['ended while being read (the file shrank)'])
    filled += bytesRead
  }
}

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4))
}

/**
 * Writes a PCM16 WAV (mono or stereo) chunk by chunk into a 0600 temporary file beside `file`, and on
 * `close()` fills in the RIFF and data sizes and renames it to `file`. `abort()` removes the temporary file.
 */
export class WavWriter {
  readonly file: string
  readonly channels: 1 | 2
  readonly #temporary: string
  readonly #handle: FileHandle
  #dataBytes = 0
  #done = false

  private constructor(file: string, channels: 1 | 2, temporary: string, handle: FileHandle) {
    this.file = file
    this.channels = channels
    this.#temporary = temporary
    this.#handle = handle
  }

  static async create(file: string, channels: 1 | 2 = 1, sampleRateHz = SAMPLE_RATE_HZ): Promise<WavWriter> {
    const temporary = `${file}.${process.pid}.${Date.now().toString(36)}.partial`
    let handle: FileHandle
    try {
      handle = await open(temporary, 'wx', 0o600)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      throw new Error(
        `Cannot write WAV file ${file} (${code}); check that its folder exists and is writable.`,
      )
    }
    const writer = new WavWriter(file, channels, temporary, handle)
    await handle.write(pcm16WavHeader(channels, sampleRateHz, 0), 0, WAV_HEADER_BYTES, 0)
    return writer
  }

  /** Append samples: one array for mono, the left and right channels (equal lengths) for stereo. */
  async write(...channels: Int16Array[]): Promise<void> {
    if (this.#done) throw new Error(`WavWriter ${this.file}: write() after close() or abort()`)
    if (channels.length !== this.channels) {
      throw new Error(`WavWriter ${this.file}: expected ${this.channels} channel(s), got ${channels.length}`)
    }
    const frames = channels[0]?.length ?? 0
    if (channels.some((channel) => channel.length !== frames)) {
      throw new Error(`WavWriter ${this.file}: stereo channels must have the same length in each write`)
    }
    const bytes = new Uint8Array(frames * this.channels * BYTES_PER_SAMPLE)
    const view = new DataView(bytes.buffer)
    let offset = 0
    for (let i = 0; i < frames; i++) {
      for (const channel of channels) {
        view.setInt16(offset, channel[i] as number, true)
        offset += BYTES_PER_SAMPLE
      }
    }
    if (this.#dataBytes + bytes.length > MAX_DATA_BYTES) {
      throw new Error(`WavWriter ${this.file}: a WAV file cannot hold more than 4 GiB of audio`)
    }
    await this.#handle.write(bytes, 0, bytes.length, WAV_HEADER_BYTES + this.#dataBytes)
    this.#dataBytes += bytes.length
  }

  /** Finish the file: real sizes in the header, then rename into place. */
  async close(): Promise<void> {
    if (this.#done) return
    this.#done = true
    try {
      const sizes = new Uint8Array(4)
      const view = new DataView(sizes.buffer)
      view.setUint32(0, WAV_HEADER_BYTES - 8 + this.#dataBytes, true)
      await this.#handle.write(sizes, 0, 4, 4)
      view.setUint32(0, this.#dataBytes, true)
      await this.#handle.write(sizes, 0, 4, 40)
      await this.#handle.close()
      await rename(this.#temporary, this.file)
    } catch (error) {
      await rm(this.#temporary, { force: true })
      throw error
    }
  }

  /** Give up: nothing is left at `file` or beside it. */
  async abort(): Promise<void> {
    if (this.#done) return
    this.#done = true
    await this.#handle.close().catch(() => undefined)
    await rm(this.#temporary, { force: true })
  }
}
