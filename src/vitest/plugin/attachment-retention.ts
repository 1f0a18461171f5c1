// Bounding the disk Vitest's attachment copies take. Vitest copies every file a test attaches by path (each
// scenario's input, output and conversation WAV) into the attachments folder on every run, and nothing removes
// them: about 85 MB per run of the bundled CRAWL dataset (22 scenarios, two architectures, three WAVs each),
// and the run folders hold the same audio anyway. `vitest --ui` links the current run's copies; the previous
// run's are kept too, so a report or merge of it made while a new run starts still resolves. Before each run
// the copies older than the last KEPT_RUNS run starts are deleted; the starts are listed in the folder itself.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE } from '../../artifacts/index.ts'

/** How many runs' attachment copies stay on disk (the current one included). */
export const KEPT_RUNS = 2
export const RUN_STARTS_FILE = '.live-evals-run-starts.json'

/**
 * Records a run starting now and deletes the copies made before the oldest of the last `keptRuns` starts.
 * Returns the names of the deleted files. Files whose names start with "." are never touched.
 */
export async function pruneAttachmentCopies(
  attachmentsDir: string,
  options: { now?: Date; keptRuns?: number } = {},
): Promise<string[]> {
  const keptRuns = options.keptRuns ?? KEPT_RUNS
  const now = (options.now ?? new Date()).getTime()
  const starts = [...(await readRunStarts(attachmentsDir)), now].sort((a, b) => a - b).slice(-keptRuns)
  await writeFile(join(attachmentsDir, RUN_STARTS_FILE), JSON.stringify(starts), { mode: PRIVATE_FILE_MODE })
  const cutoff = starts[0] ?? now
  const removed: string[] = []
  for (const entry of await readdir(attachmentsDir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue
    const path = join(attachmentsDir, entry.name)
    const modified = await modifiedAt(path)
    if (modified !== null && modified < cutoff) {
      await rm(path, { force: true })
      removed.push(entry.name)
    }
  }
  return removed
}

/**
 * When the file was last written, or null when it is gone: two runs sharing a results folder (a live run beside a
 * replay, say) prune the same copies at once, and one deleting a file the other listed is no failure.
 */
export async function modifiedAt(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** The recorded run starts (epoch ms); a missing or unreadable file means none. */
async function readRunStarts(attachmentsDir: string): Promise<number[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(attachmentsDir, RUN_STARTS_FILE), 'utf8'))
    return Array.isArray(parsed) ? parsed.filter((value) => Number.isFinite(value)) : []
  } catch {
    return []
  }
}
