// Directories that hold artifacts are private to their owner (0700). The mode is set explicitly after
// creation because mkdir's mode is filtered by the process umask; folders that already existed (the
// user's own results folder, /tmp) are left as they are.
import { chmod, lstat, mkdir } from 'node:fs/promises'
import { relative, resolve, sep } from 'node:path'

export const PRIVATE_DIRECTORY_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** Create `path` and any missing ancestors, each new one 0700. Returns the folders it created. */
export async function makePrivateDirectories(path: string): Promise<string[]> {
  const target = resolve(path)
  const firstCreated = await mkdir(target, { recursive: true, mode: PRIVATE_DIRECTORY_MODE })
  if (firstCreated === undefined) {
    const stats = await lstat(target)
    if (!stats.isDirectory()) throw new Error(`${target} exists but is not a directory`)
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
  for (const folder of created) await chmod(folder, PRIVATE_DIRECTORY_MODE)
  return created
}

/** Create one folder exclusively (fails with EEXIST if it is there) and make it 0700. */
export async function makePrivateDirectoryExclusively(path: string): Promise<void> {
  await mkdir(path, { mode: PRIVATE_DIRECTORY_MODE })
  await chmod(path, PRIVATE_DIRECTORY_MODE)
}
