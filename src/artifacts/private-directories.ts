// Directories that hold artifacts are private to their owner (0700). The mode is set explicitly after
// creation because mkdir's mode is filtered by the process umask; folders that already existed (the
// user's own results folder, /tmp) are left as they are.
//
// Before anything is created, the folder is checked the way a person would want it refused: a symbolic link
// (live-evals only writes where it can check every step), a file, a folder this user cannot write, or a
// missing folder whose nearest existing parent is one of those. The refusal is one ResultsDirectoryError
// sentence naming the path, and nothing is left behind: folders created before a later step failed are
// removed again.
import { constants } from 'node:fs'
import { access, chmod, lstat, mkdir, readlink, rmdir, stat } from 'node:fs/promises'
import { dirname, relative, resolve, sep } from 'node:path'
import { ResultsDirectoryError } from './errors.ts'

export const PRIVATE_DIRECTORY_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

async function lstatOrNull(path: string) {
  try {
    return await lstat(path)
  } catch (error) {
    // Missing, or under something that is not a folder: either way there is nothing at `path`.
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

async function isWritableFolder(path: string): Promise<boolean> {
  try {
    await access(path, constants.W_OK | constants.X_OK)
    return true
  } catch {
    return false
  }
}

function capitalized(what: string): string {
  return `${what.charAt(0).toUpperCase()}${what.slice(1)}`
}

/**
 * Why `path` cannot be (or become) a folder live-evals writes into, as one sentence, or null when it can.
 * `what` names the folder in the sentence ("results folder", "attachments folder"). Creates nothing.
 */
export async function privateDirectoryProblem(path: string, what = 'folder'): Promise<string | null> {
  const target = resolve(path)
  const The = `${capitalized(what)} ${target}`
  let stats: Awaited<ReturnType<typeof lstat>> | null
  try {
    stats = await lstatOrNull(target)
  } catch (error) {
    return `${The} cannot be checked (${(error as NodeJS.ErrnoException).code ?? String(error)}).`
  }
  if (stats !== null) {
    if (stats.isSymbolicLink()) {
      const to = await readlink(target).catch(() => null)
      return `${The} is a symbolic link${to === null ? '' : ` (to ${to})`}; live-evals writes only into a real folder, so give the folder's own path.`
    }
    if (!stats.isDirectory()) return `${The} is a file, not a folder; remove it or choose another ${what}.`
    if (!(await isWritableFolder(target)))
      return `${The} is not writable by this user; fix its permissions or choose another ${what}.`
    return null
  }
  // Missing: it will be created inside its nearest existing parent, which must be a writable folder.
  for (let parent = dirname(target); ; parent = dirname(parent)) {
    const parentStats = await stat(parent).catch(() => null) // ancestors may be links (/tmp on macOS is one)
    if (parentStats !== null) {
      if (!parentStats.isDirectory()) return `${The} cannot be created: ${parent} is a file, not a folder.`
      if (!(await isWritableFolder(parent)))
        return `${The} cannot be created: ${parent} is not writable by this user.`
      return null
    }
    if (dirname(parent) === parent) return `${The} cannot be created: no part of its path exists.`
  }
}

/** Throws ResultsDirectoryError when `path` cannot be (or become) a folder to write into. Creates nothing. */
export async function assertPrivateDirectoryUsable(path: string, what = 'folder'): Promise<void> {
  const problem = await privateDirectoryProblem(path, what)
  if (problem !== null) throw new ResultsDirectoryError(resolve(path), problem)
}

/**
 * Create `path` and any missing ancestors, each new one 0700, after checking it (see above). Returns the folders
 * it created. On any refusal or failure it throws ResultsDirectoryError and leaves nothing it created behind.
 */
export async function makePrivateDirectories(path: string, what = 'folder'): Promise<string[]> {
  const target = resolve(path)
  await assertPrivateDirectoryUsable(target, what)
  let firstCreated: string | undefined
  try {
    firstCreated = await mkdir(target, { recursive: true, mode: PRIVATE_DIRECTORY_MODE })
  } catch (error) {
    throw new ResultsDirectoryError(
      target,
      `${capitalized(what)} ${target} cannot be created (${codeOf(error)}).`,
    )
  }
  if (firstCreated === undefined) {
    // Created by someone else between the check and mkdir: check what it is now.
    await assertPrivateDirectoryUsable(target, what)
    return []
  }
  const created = [firstCreated]
  const rest = relative(firstCreated, target)
  if (rest !== '') {
    let current = firstCreated
    for (const part of rest.split(sep)) {
      current = resolve(current, part)
      created.push(current)
    }
  }
  try {
    for (const folder of created) await chmod(folder, PRIVATE_DIRECTORY_MODE)
  } catch (error) {
    await removeCreatedDirectories(created)
    throw new ResultsDirectoryError(
      target,
      `${capitalized(what)} ${target} cannot be made private (${codeOf(error)}).`,
    )
  }
  return created
}

/** Removes folders this process created, deepest first; only empty ones go (rmdir), so nothing written is lost. */
export async function removeCreatedDirectories(created: readonly string[]): Promise<void> {
  for (const folder of [...created].reverse()) await rmdir(folder).catch(() => undefined)
}

/** Create one folder exclusively (fails with EEXIST if it is there) and make it 0700. */
export async function makePrivateDirectoryExclusively(path: string): Promise<void> {
  await mkdir(path, { mode: PRIVATE_DIRECTORY_MODE })
  await chmod(path, PRIVATE_DIRECTORY_MODE)
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))
}
