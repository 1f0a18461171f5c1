// Writing artifacts safely. Every write goes through the destination checks (destinations.ts); missing folders
// are created one at a time (0700) so none of them can be a symlink planted earlier; the data is written to a fresh
// temporary file beside the destination (O_EXCL | O_NOFOLLOW, 0600) and renamed over it (atomic-file.ts),
// so a reader, or a run killed mid-write, sees the old artifact, the new one or none, never a cut one.
// Just before the rename the destination is checked again (a symlink, a hard link or a folder swapped in
// since the path check is refused); the rename itself replaces a name and never writes through a link.
// Modes are set explicitly, so the umask never matters. Text is scrubbed of credentials on its way out
// (config/outbound-redaction.ts): an artifact never holds a key an upstream error quoted back.
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs'
import { lstat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { redactText } from '../config/outbound-redaction.ts'
import { type AtomicWriteOptions, writeFileAtomically, writeFileAtomicallySync } from './atomic-file.ts'
import { checkArtifactDestination, lstatOrNull, resolveArtifactPathSync } from './destinations.ts'
import { ArtifactPathError, ArtifactsError } from './errors.ts'
import { makePrivateDirectoryExclusively, PRIVATE_DIRECTORY_MODE } from './private-directories.ts'

export type ArtifactWriteOptions = Pick<AtomicWriteOptions, 'afterChunk' | 'durableName' | 'flush'>

function parentFolderProblem(stats: Stats, shown: string): string | null {
  if (stats.isSymbolicLink()) return `${shown} is a symbolic link`
  if (!stats.isDirectory()) return `${shown} is not a folder`
  return null
}

/** Makes the folders of `relativePath` from part `from` on (the ones before it exist and were checked). */
async function makeParentFolders(runDir: string, relativePath: string, from: number): Promise<void> {
  const parents = relativePath.split('/').slice(0, -1)
  let current = runDir
  for (const [index, segment] of parents.entries()) {
    current = resolve(current, segment)
    if (index < from) continue
    try {
      await makePrivateDirectoryExclusively(current)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const problem = parentFolderProblem(await lstat(current), parents.slice(0, index + 1).join('/'))
      if (problem !== null) throw new ArtifactPathError(runDir, relativePath, problem)
    }
  }
}

function makeParentFoldersSync(runDir: string, relativePath: string): void {
  const parents = relativePath.split('/').slice(0, -1)
  let current = runDir
  for (const [index, segment] of parents.entries()) {
    current = resolve(current, segment)
    try {
      mkdirSync(current, { mode: PRIVATE_DIRECTORY_MODE })
      chmodSync(current, PRIVATE_DIRECTORY_MODE) // mkdir's mode passes through the umask
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const problem = parentFolderProblem(lstatSync(current), parents.slice(0, index + 1).join('/'))
      if (problem !== null) throw new ArtifactPathError(runDir, relativePath, problem)
    }
  }
}

/** What may not be replaced at a destination checked earlier by path (something swapped in since), or null. */
export function replacedDestinationProblem(stats: Stats | null): string | null {
  if (stats === null) return null
  if (stats.isSymbolicLink()) return 'the destination is a symbolic link'
  if (!stats.isFile()) return 'the destination is not a regular file'
  if (stats.nlink > 1) return `the destination is hard-linked (${stats.nlink} links)`
  return null
}

/**
 * The check made just before the rename: a destination checked by path must not have become a symlink, a
 * folder or a hard link since. Exported so tests can exercise the guard without racing.
 */
export function assertReplaceableDestination(root: string, relativePath: string, destination: string): void {
  const problem = replacedDestinationProblem(lstatOrNull(destination))
  if (problem !== null) throw new ArtifactPathError(root, relativePath, problem)
}

function asArtifactError(root: string, relativePath: string, error: unknown): ArtifactsError {
  if (error instanceof ArtifactsError) return error
  const reason =
    (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))
  return new ArtifactPathError(root, relativePath, `cannot write the file (${reason})`)
}

/** Write (or replace, atomically) an artifact file 0600 inside `runDir`. Returns its absolute path. */
export async function writeArtifact(
  runDir: string,
  relativePath: string,
  data: string | Uint8Array,
  options: ArtifactWriteOptions = {},
): Promise<string> {
  const root = resolve(runDir)
  const { path: destination, existingParts } = await checkArtifactDestination(root, relativePath)
  try {
    await makeParentFolders(root, relativePath, existingParts)
    await writeFileAtomically(destination, typeof data === 'string' ? redactText(data) : data, {
      ...options,
      beforeRename: () => assertReplaceableDestination(root, relativePath, destination),
    })
  } catch (error) {
    throw asArtifactError(root, relativePath, error)
  }
  return destination
}

/**
 * writeArtifact without yielding to the event loop, the destination's name flushed to disk too: for what must be
 * on disk before a process that is being interrupted exits.
 */
export function writeArtifactSync(runDir: string, relativePath: string, data: string | Uint8Array): string {
  const root = resolve(runDir)
  const destination = resolveArtifactPathSync(root, relativePath)
  try {
    makeParentFoldersSync(root, relativePath)
    writeFileAtomicallySync(destination, typeof data === 'string' ? redactText(data) : data, {
      durableName: true,
      beforeRename: () => assertReplaceableDestination(root, relativePath, destination),
    })
  } catch (error) {
    throw asArtifactError(root, relativePath, error)
  }
  return destination
}

/** The text of a JSON artifact: two-space indent, trailing newline. */
export function jsonArtifactText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

/** Write a JSON artifact (two-space indent, trailing newline). */
export async function writeJsonArtifact(
  runDir: string,
  relativePath: string,
  value: unknown,
  options: ArtifactWriteOptions = {},
): Promise<string> {
  return writeArtifact(runDir, relativePath, jsonArtifactText(value), options)
}
