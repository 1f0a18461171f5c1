// A writer killed mid-write leaves its temporary file (`.<name>.<pid>.<n>.tmp`, see atomic-file.ts) beside the
// untouched artifact. Nothing reads these; they are removed when a killed run's results are rebuilt. Only
// temporaries of processes that no longer exist go: a run that is still writing keeps its own.
import { type Dirent, readdirSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { temporaryWriterPid } from './atomic-file.ts'

/** True for a temporary file whose writer no longer exists (a live writer's, or any other file, is kept). */
function isStray(name: string): boolean {
  const pid = temporaryWriterPid(name)
  if (pid === null) return false
  try {
    process.kill(pid, 0) // signal 0 only asks whether the process exists
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Removes the temporaries of dead writers anywhere under `runDir` (never following links). Returns their paths. */
export function removeStrayTemporaries(runDir: string): string[] {
  const removed: string[] = []
  const folders = [runDir]
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries: Dirent[]
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) folders.push(path)
      else if (entry.isFile() && isStray(entry.name)) {
        try {
          unlinkSync(path)
          removed.push(path)
        } catch {}
      }
    }
  }
  return removed.sort()
}
