// The one way a file a user names is read (a dataset, a config or env file, a recording, a background bed, an
// interventions sidecar, a prompt). A path can be anything: /dev/zero never ends and a FIFO waits for a writer
// forever, and either would grow a worker without bound or hang a run. So the file is opened non-blocking (a
// FIFO opens at once instead of waiting), must be a regular file (a FIFO, a device, a socket or a folder is
// refused at once, by what it is), and is read only up to its kind's size cap — counted while reading, not only
// from the size the file reports (a file that grows, or one under /proc that reports 0, stays bounded).
// The handle is closed whatever happens. Each caller turns a refusal into its own error, naming its setting.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'

const MiB = 1024 * 1024

/** The size cap of each kind of input file: generous for real use, small enough that no read can exhaust memory. */
export const INPUT_FILE_CAPS = {
  /** A dataset JSON (scenarios/load.ts has its own message for it). */
  dataset: 16 * MiB,
  /** A harness TOML file. */
  config: 1 * MiB,
  /** A `.env` file. */
  env_file: 1 * MiB,
  /** A WAV recording read whole (24 kHz mono PCM16: about 93 minutes). */
  recording: 256 * MiB,
  /** A WAV streamed in chunks (`live-evals audio`): the largest a RIFF size field can describe. */
  streamed_recording: 4 * 1024 * MiB,
  /** A background bed, decoded whole. */
  background_bed: 64 * MiB,
  /** A cassette of recorded exchanges. */
  cassette: 256 * MiB,
} as const

export type InputFileKind = keyof typeof INPUT_FILE_CAPS

/** What a non-regular path is, as a refusal says it. */
export type NonRegularFileType =
  | 'a FIFO (named pipe)'
  | 'a character device'
  | 'a block device'
  | 'a socket'
  | 'a folder'
  | 'not a regular file'

export type InputFileRefusal =
  | { kind: 'not_a_file'; type: NonRegularFileType }
  | { kind: 'too_large'; bytes: number; maxBytes: number }
  | { kind: 'unreadable'; code: string }

/** The refusal in words, after the file's name: "is a FIFO (named pipe), not a regular file". */
export function describeInputFileRefusal(refusal: InputFileRefusal): string {
  switch (refusal.kind) {
    case 'not_a_file':
      return refusal.type === 'not a regular file'
        ? 'is not a regular file'
        : `is ${refusal.type}, not a regular file`
    case 'too_large':
      return `is too large: ${refusal.bytes} bytes or more, over the limit of ${refusal.maxBytes} bytes`
    case 'unreadable':
      return refusal.code === 'ENOENT' ? 'does not exist' : `cannot be read (${refusal.code})`
  }
}

export class InputFileError extends Error {
  readonly file: string
  readonly refusal: InputFileRefusal

  constructor(file: string, refusal: InputFileRefusal) {
    super(`${file} ${describeInputFileRefusal(refusal)}`)
    this.name = 'InputFileError'
    this.file = file
    this.refusal = refusal
  }
}

function nonRegularType(stats: Stats): NonRegularFileType | null {
  if (stats.isFile()) return null
  if (stats.isFIFO()) return 'a FIFO (named pipe)'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  if (stats.isDirectory()) return 'a folder'
  return 'not a regular file'
}

function refusalOf(stats: Stats, maxBytes: number): InputFileRefusal | null {
  const type = nonRegularType(stats)
  if (type !== null) return { kind: 'not_a_file', type }
  if (stats.size > maxBytes) return { kind: 'too_large', bytes: stats.size, maxBytes }
  return null
}

const unreadable = (file: string, error: unknown) =>
  error instanceof InputFileError
    ? error
    : new InputFileError(file, {
        kind: 'unreadable',
        code: (error as NodeJS.ErrnoException).code ?? String(error),
      })

// O_NONBLOCK makes opening a FIFO return at once (no writer needed); it changes nothing for a regular file.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK
// Read in steps, so a file that reports the wrong size is still stopped at its cap.
const READ_STEP_BYTES = 1 * MiB
/** The least read past the reported size (where a file that grew since its check is found). */
const MIN_READ_STEP_BYTES = 4096

/**
 * Opens `file` for reading after checking it is a regular file of at most `maxBytes` (for a streaming reader,
 * which then owns the handle). Throws InputFileError.
 */
export async function openInputFile(file: string, maxBytes: number): Promise<FileHandle> {
  return (await openChecked(file, maxBytes)).handle
}

/** openInputFile with the size the file reported when it was checked. */
async function openChecked(file: string, maxBytes: number): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle | undefined
  try {
    handle = await open(file, OPEN_FLAGS)
    const stats = await handle.stat()
    const refusal = refusalOf(stats, maxBytes)
    if (refusal !== null) throw new InputFileError(file, refusal)
    return { handle, size: stats.size }
  } catch (error) {
    await handle?.close()
    throw unreadable(file, error)
  }
}

/** Checks `file` as the reader would, without reading it (`validate` does this for recordings). */
export async function checkInputFile(file: string, maxBytes: number): Promise<void> {
  const handle = await openInputFile(file, maxBytes)
  await handle.close()
}

/** The whole of a regular file of at most `maxBytes`. Throws InputFileError. */
export async function readInputFile(file: string, maxBytes: number): Promise<Uint8Array> {
  const { handle, size } = await openChecked(file, maxBytes)
  try {
    const chunks: Uint8Array[] = []
    let total = 0
    for (;;) {
      // Sized by what the file reported (one byte more, so the read comes back short at the end), at least a small
      // step past it (a file that grew), at most a read step and the cap: a zeroed megabyte per step and another
      // to find the end were most of reading a scenario's WAV.
      const wanted = Math.max(size - total + 1, MIN_READ_STEP_BYTES)
      const chunk = Buffer.allocUnsafe(Math.min(READ_STEP_BYTES, maxBytes + 1 - total, wanted))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > maxBytes) throw new InputFileError(file, { kind: 'too_large', bytes: total, maxBytes })
      chunks.push(chunk.subarray(0, bytesRead))
      // A regular file reads short only at its end: no second read to see it.
      if (bytesRead < chunk.length) break
    }
    // One read (the usual case) is returned as it is, without a copy.
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, total)
  } catch (error) {
    throw unreadable(file, error)
  } finally {
    await handle.close()
  }
}

/** readInputFile for the synchronous loaders (the settings: TOML and `.env` files). */
export function readInputFileSync(file: string, maxBytes: number): Uint8Array {
  let descriptor: number | undefined
  try {
    descriptor = openSync(file, OPEN_FLAGS)
    const refusal = refusalOf(fstatSync(descriptor), maxBytes)
    if (refusal !== null) throw new InputFileError(file, refusal)
    const chunks: Uint8Array[] = []
    let total = 0
    for (;;) {
      const chunk = new Uint8Array(Math.min(READ_STEP_BYTES, maxBytes + 1 - total))
      const bytesRead = readSync(descriptor, chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > maxBytes) throw new InputFileError(file, { kind: 'too_large', bytes: total, maxBytes })
      chunks.push(chunk.subarray(0, bytesRead))
      // A regular file reads short only at its end: no second read to see it.
      if (bytesRead < chunk.length) break
    }
    return Buffer.concat(chunks, total)
  } catch (error) {
    throw unreadable(file, error)
  } finally {
    if (descriptor !== undefined) closeSync(descriptor)
  }
}

/** A regular file's text (UTF-8), read with readInputFileSync. */
export function readInputTextSync(file: string, maxBytes: number): string {
  return Buffer.from(readInputFileSync(file, maxBytes)).toString('utf8')
}
