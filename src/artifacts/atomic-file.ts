// Replacing a file so that a reader sees the old file, the new file, or nothing; never a cut one. The data goes
// to a temporary file in the same folder (same file system, so the rename is atomic), created exclusively
// with O_NOFOLLOW and mode 0600, flushed to disk, then renamed over the destination. A process killed mid-way
// leaves at most a stray `.<name>.<pid>.<n>.tmp` beside the untouched destination. Temporary names start with
// "." and so can never be an artifact's own name (artifact names start with a letter or a digit).
//
// Both an asynchronous writer (artifacts during a run) and a synchronous one exist: on SIGINT/SIGTERM Vitest
// calls process.exit about 1 ms after the signal, so what must reach the disk then (the interrupted run's
// results.json) is written without yielding to the event loop.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { type FileHandle, open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { PRIVATE_FILE_MODE } from './private-directories.ts'

/** Size of each write to the temporary file. */
export const WRITE_CHUNK_BYTES = 1024 * 1024

const TEMPORARY_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

export interface AtomicWriteOptions {
  /**
   * Called after each chunk reached the temporary file, with the bytes written so far. A test seam: a test stops
   * the writer here (throws, or kills the process) to show the destination is never seen cut short.
   */
  afterChunk?: (writtenBytes: number) => void | Promise<void>
  /** Called once the data is on disk, just before the rename; throwing here abandons the write. */
  beforeRename?: () => void | Promise<void>
  /** Also flush the folder after the rename, so the new name itself survives a power cut. */
  durableName?: boolean
  /**
   * false: the data is not flushed to disk before the rename. Readers and a killed process still see the old
   * file or the whole new one (the rename is atomic either way); only a power cut or a crash of the machine may
   * then leave it empty. For a scenario's own artifacts, which its row points at but never depends on: the rows
   * journal and results.json keep their flushes. Default true.
   */
  flush?: boolean
}

let temporaryCounter = 0

/** A fresh temporary name beside `destination`. */
function temporaryPathFor(destination: string): string {
  temporaryCounter++
  return join(dirname(destination), `.${basename(destination)}.${process.pid}.${temporaryCounter}.tmp`)
}

/** The pid of the writer that made a temporaryPathFor name; null for any other name. */
export function temporaryWriterPid(name: string): number | null {
  const pid = Number(/^\..+\.(\d+)\.\d+\.tmp$/.exec(name)?.[1])
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null
}

/** True for the names temporaryPathFor makes (stray ones are left by a killed writer). */
export function isTemporaryName(name: string): boolean {
  return temporaryWriterPid(name) !== null
}

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data
}

/**
 * Refuses a temporary file that is not the fresh, private, single-link file this process just created. Returns
 * whether its mode still needs setting: the umask may have narrowed the mode it was created with (it never widens
 * it); when it did not, a chmod would change nothing.
 */
function assertFreshFile(stats: { isFile(): boolean; nlink: number; mode: number }): boolean {
  if (!stats.isFile() || stats.nlink !== 1) throw new Error('the temporary file is not a fresh regular file')
  return (stats.mode & 0o7777) !== PRIVATE_FILE_MODE
}

export async function writeFileAtomically(
  destination: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const bytes = bytesOf(data)
  const temporary = temporaryPathFor(destination)
  let handle: FileHandle | null = await open(temporary, TEMPORARY_FLAGS, PRIVATE_FILE_MODE)
  try {
    if (assertFreshFile(await handle.stat())) await handle.chmod(PRIVATE_FILE_MODE)
    for (let offset = 0; offset < bytes.length; offset += WRITE_CHUNK_BYTES) {
      const chunk = bytes.subarray(offset, Math.min(offset + WRITE_CHUNK_BYTES, bytes.length))
      let written = 0
      while (written < chunk.length) written += (await handle.write(chunk, written)).bytesWritten
      await options.afterChunk?.(offset + chunk.length)
    }
    if (options.flush !== false) await handle.sync()
    await handle.close()
    handle = null
    await options.beforeRename?.()
    await rename(temporary, destination)
  } catch (error) {
    await handle?.close().catch(() => undefined)
    await unlink(temporary).catch(() => undefined)
    throw error
  }
  if (options.durableName) syncFolder(dirname(destination))
}

export function writeFileAtomicallySync(
  destination: string,
  data: string | Uint8Array,
  options: Pick<AtomicWriteOptions, 'durableName'> & { beforeRename?: () => void } = {},
): void {
  const bytes = bytesOf(data)
  const temporary = temporaryPathFor(destination)
  let descriptor: number | null = openSync(temporary, TEMPORARY_FLAGS, PRIVATE_FILE_MODE)
  try {
    if (assertFreshFile(fstatSync(descriptor))) fchmodSync(descriptor, PRIVATE_FILE_MODE)
    for (let offset = 0; offset < bytes.length; )
      offset += writeSync(descriptor, bytes, offset, bytes.length - offset)
    fsyncSync(descriptor)
    closeSync(descriptor)
    descriptor = null
    options.beforeRename?.()
    renameSync(temporary, destination)
  } catch (error) {
    if (descriptor !== null) closeSync(descriptor)
    try {
      unlinkSync(temporary)
    } catch {}
    throw error
  }
  if (options.durableName) syncFolder(dirname(destination))
}

/** Flushes a folder's entries (a rename, a new file) to disk. */
export function syncFolder(folder: string): void {
  const descriptor = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}
