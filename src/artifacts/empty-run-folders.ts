// Run folders that a run reserved and never wrote to: the run was stopped (SIGINT in its first seconds, before
// its journals were open, or SIGKILL) between reserving the folder and recording anything. Nothing refers to
// them and no later run would mention them, so the next run removes them. Only a folder named like a run
// (`<label>_<YYYYmmdd_HHMMSS>_<mmm>Z`), empty, and untouched for EMPTY_RUN_FOLDER_MIN_AGE_MS is removed: a run
// starting right now in the same results folder (a parallel shard, a second terminal) owns an empty folder for
// a few seconds too, and must keep it. Removal is rmdir, which never takes a folder that holds anything.
import { readdirSync, rmdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** How long an empty run folder is left alone: far longer than any run takes to open its journal. */
export const EMPTY_RUN_FOLDER_MIN_AGE_MS = 10 * 60_000

const RUN_FOLDER_NAME = /_\d{8}_\d{6}_\d{3}Z$/

export interface EmptyRunFolderOptions {
  now?: Date
  minAgeMs?: number
  /** Folders of the runs starting now: never removed. */
  keep?: ReadonlySet<string>
}

/** Removes the abandoned empty run folders directly inside `resultsDir`; returns their paths, sorted. */
export function removeEmptyRunFolders(resultsDir: string, options: EmptyRunFolderOptions = {}): string[] {
  const now = (options.now ?? new Date()).getTime()
  const minAgeMs = options.minAgeMs ?? EMPTY_RUN_FOLDER_MIN_AGE_MS
  let entries: { name: string; isDirectory(): boolean }[]
  try {
    entries = readdirSync(resultsDir, { withFileTypes: true })
  } catch {
    return []
  }
  const removed: string[] = []
  for (const entry of entries) {
    if (!entry.isDirectory() || !RUN_FOLDER_NAME.test(entry.name)) continue
    const folder = join(resultsDir, entry.name)
    if (options.keep?.has(folder)) continue
    try {
      if (now - statSync(folder).mtimeMs < minAgeMs) continue
      if (readdirSync(folder).length > 0) continue
      rmdirSync(folder)
      removed.push(folder)
    } catch {
      // gone already, or not ours to read: leave it
    }
  }
  return removed.sort()
}
