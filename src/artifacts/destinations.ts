// Checked artifact destinations. An artifact path is always relative to the run folder and made of
// artifact-safe names, so it cannot leave the run folder (no absolute paths, no "." or ".."), cannot
// be redirected (no symlinked folder or file on the way), and cannot write through to another file
// (no hard-linked destination). Paths are checked, never sanitized: a bad one is refused with its reason.
import { lstat } from 'node:fs/promises'
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

async function lstatOrNull(path: string) {
  try {
    return await lstat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * The absolute destination of `relativePath` inside `runDir`, after checking its text and every part of it that
 * already exists on disk. Throws ArtifactPathError naming the path and the reason.
 */
export async function resolveArtifactPath(runDir: string, relativePath: string): Promise<string> {
  const root = resolve(runDir)
  const textProblem = artifactPathProblem(relativePath)
  if (textProblem !== null) throw new ArtifactPathError(root, relativePath, textProblem)

  const rootStats = await lstatOrNull(root)
  if (rootStats === null) throw new ArtifactPathError(root, relativePath, 'the run folder does not exist')
  if (rootStats.isSymbolicLink())
    throw new ArtifactPathError(root, relativePath, 'the run folder is a symbolic link')
  if (!rootStats.isDirectory())
    throw new ArtifactPathError(root, relativePath, 'the run folder is not a directory')

  const segments = relativePath.split('/')
  let current = root
  for (const [index, segment] of segments.entries()) {
    current = resolve(current, segment)
    const stats = await lstatOrNull(current)
    if (stats === null) return resolve(root, relativePath) // nothing below a missing folder exists yet
    const shown = segments.slice(0, index + 1).join('/')
    if (stats.isSymbolicLink()) throw new ArtifactPathError(root, relativePath, `${shown} is a symbolic link`)
    const isLast = index === segments.length - 1
    if (!isLast && !stats.isDirectory())
      throw new ArtifactPathError(root, relativePath, `${shown} is not a folder`)
    if (isLast) {
      if (!stats.isFile())
        throw new ArtifactPathError(root, relativePath, `${shown} exists and is not a regular file`)
      if (stats.nlink > 1) {
        throw new ArtifactPathError(root, relativePath, `${shown} is hard-linked (${stats.nlink} links)`)
      }
    }
  }
  return current
}
