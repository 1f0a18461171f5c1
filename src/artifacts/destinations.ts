// Checked artifact destinations. An artifact path is always relative to the run folder and made of
// artifact-safe names, so it cannot leave the run folder (no absolute paths, no "." or ".."), cannot
// be redirected (no symlinked folder or file on the way), and cannot replace a file shared with another place
// (no hard-linked destination). Paths are checked, never sanitized: a bad one is refused with its reason.
// The rules are written once (destinationProblem) and driven two ways: asynchronously for writes during a run,
// synchronously for the interrupted run's last writes (see atomic-file.ts).
import { lstatSync, type Stats } from 'node:fs'
import { resolve } from 'node:path'
import { ArtifactPathError } from './errors.ts'
import { artifactIdProblem } from './ids.ts'

export { ArtifactPathError }

/** Why `relativePath` cannot name an artifact inside a run folder (by its text alone), or null. */
export function artifactPathProblem(relativePath: string): string | null {
  if (typeof relativePath !== 'string' || relativePath === '') return 'the path is empty'
  if (relativePath.includes('\0')) return 'the path contains a NUL character'
  if (relativePath.includes('\\')) return 'the path contains a backslash; use "/" between folders'
  if (relativePath.startsWith('/') || /^[A-Za-z]:/.test(relativePath)) {
    return 'the path is absolute; artifact paths are relative to the run folder'
  }
  if (/[^\x20-\x7e]/.test(relativePath)) return 'the path contains non-ASCII or control characters'
  for (const segment of relativePath.split('/')) {
    if (segment === '') return 'the path has an empty segment ("//" or a trailing "/")'
    if (segment === '.') return 'the path has a "." segment'
    if (segment === '..') return 'the path has a ".." segment, which would leave the run folder'
    const problem = artifactIdProblem(segment)
    if (problem !== null) return `the name ${JSON.stringify(segment)} ${problem}`
  }
  return null
}

/**
 * lstat, null when the path does not exist. Synchronous on purpose, also for the writes during a run: a look-up
 * of a run folder's entries takes microseconds, less than the hop to a pool thread and back that the promise
 * version makes, and a missing part (every new artifact's own name) comes back as undefined instead of an error
 * built with its stack. Those hops and errors made an artifact write cost about half a millisecond of CPU.
 */
export function lstatOrNull(path: string): Stats | null {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null
}

function runFolderProblem(stats: Stats | null): string | null {
  if (stats === null) return 'the run folder does not exist'
  if (stats.isSymbolicLink()) return 'the run folder is a symbolic link'
  if (!stats.isDirectory()) return 'the run folder is not a directory'
  return null
}

/** What is wrong with an existing part `shown` of the path, or null. */
function existingPartProblem(stats: Stats, shown: string, isLast: boolean): string | null {
  if (stats.isSymbolicLink()) return `${shown} is a symbolic link`
  if (!isLast) return stats.isDirectory() ? null : `${shown} is not a folder`
  if (!stats.isFile()) return `${shown} exists and is not a regular file`
  if (stats.nlink > 1) return `${shown} is hard-linked (${stats.nlink} links)`
  return null
}

/** Why a destination is refused, or how many leading parts of its path already exist (folders, then the file). */
type DestinationCheck = { problem: string } | { existingParts: number }

/**
 * The rules, written once for both callers: yields each path whose lstat it needs, receives the Stats (null when
 * missing), and returns the reason to refuse `relativePath`, or how much of it exists.
 */
function* destinationProblem(
  root: string,
  relativePath: string,
): Generator<string, DestinationCheck, Stats | null> {
  const textProblem = artifactPathProblem(relativePath)
  if (textProblem !== null) return { problem: textProblem }
  const rootProblem = runFolderProblem(yield root)
  if (rootProblem !== null) return { problem: rootProblem }
  const segments = relativePath.split('/')
  for (let index = 0; index < segments.length; index++) {
    const stats = yield resolve(root, ...segments.slice(0, index + 1))
    if (stats === null) return { existingParts: index } // nothing below a missing folder exists yet
    const problem = existingPartProblem(
      stats,
      segments.slice(0, index + 1).join('/'),
      index === segments.length - 1,
    )
    if (problem !== null) return { problem }
  }
  return { existingParts: segments.length }
}

/** A destination that passed the checks: its absolute path, and how many leading parts of it exist already. */
export interface CheckedDestination {
  path: string
  /** Parts of the relative path found on disk, checked (folders, then the file): the writer makes the rest. */
  existingParts: number
}

/**
 * resolveArtifactPath's checks, answering also how much of the path exists: a writer that makes the missing
 * folders need not look at the ones found (and checked) here again.
 */
export async function checkArtifactDestination(
  runDir: string,
  relativePath: string,
): Promise<CheckedDestination> {
  const root = resolve(runDir)
  const checks = destinationProblem(root, relativePath)
  let step = checks.next()
  while (!step.done) step = checks.next(lstatOrNull(step.value))
  if ('problem' in step.value) throw new ArtifactPathError(root, relativePath, step.value.problem)
  return { path: resolve(root, relativePath), existingParts: step.value.existingParts }
}

/**
 * The absolute destination of `relativePath` inside `runDir`, after checking its text and every part of it that
 * already exists on disk. Throws ArtifactPathError naming the path and the reason.
 */
export async function resolveArtifactPath(runDir: string, relativePath: string): Promise<string> {
  return (await checkArtifactDestination(runDir, relativePath)).path
}

/** resolveArtifactPath without yielding to the event loop, for the last writes of an interrupted run. */
export function resolveArtifactPathSync(runDir: string, relativePath: string): string {
  const root = resolve(runDir)
  const checks = destinationProblem(root, relativePath)
  let step = checks.next()
  while (!step.done) {
    step = checks.next(lstatOrNull(step.value))
  }
  if ('problem' in step.value) throw new ArtifactPathError(root, relativePath, step.value.problem)
  return resolve(root, relativePath)
}
