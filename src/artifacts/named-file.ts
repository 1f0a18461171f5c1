// Files a person names on the command line, outside any run folder (`report --out`, `gate --summary`, the step
// summary GitHub names): the same guarantees as an artifact. A symbolic link, a hard link or anything but a
// regular file at the destination is refused by name (never written through), the file is 0600 whatever the
// umask, a replaced file is replaced atomically (write.ts, atomic-file.ts), and text is scrubbed of credentials.
import { constants } from 'node:fs'
import { lstat, open, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { redactText } from '../config/outbound-redaction.ts'
import { writeFileAtomically } from './atomic-file.ts'
import { ArtifactsError } from './errors.ts'
import { PRIVATE_FILE_MODE } from './private-directories.ts'
import { replacedDestinationProblem } from './write.ts'

async function destinationProblem(destination: string): Promise<string | null> {
  const stats = await lstat(destination).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  return replacedDestinationProblem(stats)
}

function refused(destination: string, problem: string): ArtifactsError {
  return new ArtifactsError(destination, `${destination} refused: ${problem}`)
}

/**
 * A file named in a folder that does not exist is refused naming that folder as the person wrote it (the
 * atomic writer would otherwise fail on its own temporary name, which nobody asked for).
 */
async function checkFolderOf(file: string): Promise<void> {
  const folder = dirname(file)
  const stats = await stat(resolve(folder)).catch(() => null)
  if (stats?.isDirectory()) return
  const problem = stats === null ? 'does not exist' : 'is not a folder'
  throw refused(
    resolve(file),
    `the folder ${folder} ${problem}; create it or name a file in an existing folder`,
  )
}

/** Writes (or atomically replaces) the file a person named; returns its absolute path. */
export async function writeNamedFile(file: string, text: string): Promise<string> {
  const destination = resolve(file)
  await checkFolderOf(file)
  const check = async () => {
    const problem = await destinationProblem(destination)
    if (problem !== null) throw refused(destination, `${problem}; name another file or remove it`)
  }
  await check()
  // Checked again just before the rename: a link swapped in meanwhile is refused too.
  await writeFileAtomically(destination, redactText(text), { beforeRename: check })
  return destination
}

/** Appends to the file a person named (created 0600 when missing), never through a link. */
export async function appendNamedFile(file: string, text: string): Promise<string> {
  const destination = resolve(file)
  await checkFolderOf(file)
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW
  const handle = await open(destination, flags, PRIVATE_FILE_MODE).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') {
      throw refused(destination, 'the destination is a symbolic link; name another file or remove it')
    }
    throw error
  })
  try {
    const stats = await handle.stat()
    const problem = stats.isFile()
      ? null
      : 'the destination is not a regular file; name another file or remove it'
    if (problem !== null) throw refused(destination, problem)
    await handle.appendFile(redactText(text))
  } finally {
    await handle.close()
  }
  return destination
}
