// Reserving a run's folder. Runs never merge: the folder is created exclusively (mkdir without
// `recursive`, which fails if it exists). When two runs with the same label start in the same
// millisecond (parallel shards, a quick retry), the later one takes the next free millisecond rather than
// failing, so its name stays in the run-name format and still sorts by start time. A reserved folder is watched
// for SIGINT/SIGTERM at once (rows-journal-signals.ts): a run stopped before it recorded anything leaves none.
import { resolve } from 'node:path'
import { ResultsDirectoryError } from './errors.ts'
import {
  makePrivateDirectories,
  makePrivateDirectoryExclusively,
  removeCreatedDirectories,
} from './private-directories.ts'
import { watchReservedRunFolder } from './rows-journal-signals.ts'
import { runName } from './run-name.ts'

/** How many following milliseconds to try before giving up on a crowded results folder. */
export const MAX_RUN_NAME_ATTEMPTS = 1000

export interface ReservedRunDirectory {
  /** Absolute path of the new, empty, 0700 run folder. */
  path: string
  /** Its name, `<label>_<YYYYmmdd_HHMMSS>_<mmm>Z`. */
  name: string
  /** The time in the name (later than `now` when earlier names were taken). */
  startedAt: Date
}

/**
 * Create `resultsDir` (0700 where new) and inside it a new run folder that no other run has used. A results
 * folder that cannot be used is refused with one ResultsDirectoryError sentence, and a failure leaves none of
 * the folders this call created.
 */
export async function reserveRunDirectory(
  resultsDir: string,
  label: string,
  now: Date,
  options: {
    /**
     * Watch the folder for SIGINT/SIGTERM (default). A command that handles those signals itself and keeps what it
     * wrote (`live-evals explain`) opts out: the watch ends the process by the signal once it settled the folder.
     */
    watch?: boolean
  } = {},
): Promise<ReservedRunDirectory> {
  runName(label, now) // validates the label and date before anything is created
  const root = resolve(resultsDir)
  const created = await makePrivateDirectories(root, 'results folder')
  for (let attempt = 0; attempt < MAX_RUN_NAME_ATTEMPTS; attempt++) {
    const startedAt = new Date(now.getTime() + attempt)
    const name = runName(label, startedAt)
    const path = resolve(root, name)
    try {
      await makePrivateDirectoryExclusively(path)
      if (options.watch !== false) watchReservedRunFolder(path)
      return { path, name, startedAt }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST') continue
      await removeCreatedDirectories(created)
      throw new ResultsDirectoryError(
        path,
        `The run folder ${path} cannot be created (${code ?? String(error)}).`,
      )
    }
  }
  await removeCreatedDirectories(created)
  throw new ResultsDirectoryError(
    root,
    `Cannot reserve a run folder in ${root}: the names for label "${label}" from ${runName(label, now)} ` +
      `on are taken for ${MAX_RUN_NAME_ATTEMPTS} milliseconds; use another label or results folder.`,
  )
}
