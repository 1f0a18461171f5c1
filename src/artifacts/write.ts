// Writing artifacts safely. Every write goes through resolveArtifactPath; missing folders are created
// one at a time (0700) so none of them can be a symlink planted earlier; the file is opened with
// O_NOFOLLOW and checked again on the open descriptor (a regular file with one link) before anything
// is truncated or written, which closes the gap between checking and opening. Modes are set
// explicitly, so the umask never matters.
import { constants } from 'node:fs'
import { type FileHandle, lstat, open } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ArtifactPathError, resolveArtifactPath } from './destinations.ts'
import { makePrivateDirectoryExclusively, PRIVATE_FILE_MODE } from './private-directories.ts'

async function makeParentFolders(runDir: string, relativePath: string): Promise<void> {
  const parents = relativePath.split('/').slice(0, -1)
  let current = runDir
  for (const [index, segment] of parents.entries()) {
    current = resolve(current, segment)
    try {
      await makePrivateDirectoryExclusively(current)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const stats = await lstat(current)
      const shown = parents.slice(0, index + 1).join('/')
      if (stats.isSymbolicLink())
        throw new ArtifactPathError(runDir, relativePath, `${shown} is a symbolic link`)
      if (!stats.isDirectory()) throw new ArtifactPathError(runDir, relativePath, `${shown} is not a folder`)
    }
  }
}

async function openChecked(runDir: string, relativePath: string): Promise<FileHandle> {
  const root = resolve(runDir)
  const destination = await resolveArtifactPath(root, relativePath)
  await makeParentFolders(root, relativePath)
  return openResolvedDestination(root, relativePath, destination)
}

/**
 * Open a destination that was checked by path, guarding against it being swapped since: O_NOFOLLOW refuses a
 * symlink, and the open descriptor must be a regular file with one link. Exported so tests can exercise the
 * guard without racing.
 */
export async function openResolvedDestination(
  root: string,
  relativePath: string,
  destination: string,
): Promise<FileHandle> {
  let handle: FileHandle
  try {
    // No O_TRUNC: the link count is checked on the open file first, so a hard-linked file is never emptied.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW
    handle = await open(destination, flags, PRIVATE_FILE_MODE)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP')
      throw new ArtifactPathError(root, relativePath, 'the destination is a symbolic link')
    throw new ArtifactPathError(
      root,
      relativePath,
      `cannot open the file (${code ?? (error as Error).message})`,
    )
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile())
      throw new ArtifactPathError(root, relativePath, 'the destination is not a regular file')
    if (stats.nlink > 1) {
      throw new ArtifactPathError(root, relativePath, `the destination is hard-linked (${stats.nlink} links)`)
    }
    await handle.chmod(PRIVATE_FILE_MODE)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** Write (or replace) an artifact file 0600 inside `runDir`. Returns its absolute path. */
export async function writeArtifact(
  runDir: string,
  relativePath: string,
  data: string | Uint8Array,
): Promise<string> {
  const handle = await openChecked(runDir, relativePath)
  try {
    await handle.truncate(0)
    await handle.writeFile(data)
  } finally {
    await handle.close()
  }
  return resolve(runDir, relativePath)
}

/** Write a JSON artifact (two-space indent, trailing newline). */
export async function writeJsonArtifact(
  runDir: string,
  relativePath: string,
  value: unknown,
): Promise<string> {
  return writeArtifact(runDir, relativePath, `${JSON.stringify(value, null, 2)}\n`)
}
