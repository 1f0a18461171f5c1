// Which run folders of a results folder belong together, and which is newest: `gate --latest` judges the newest
// whole run of each (phase, architecture) (src/cli/gate.ts) and `prune` keeps the newest N of each. A results folder keeps every run, so a glob
// like `results/crawl/*/results.json` on a machine that has run twice names each scenario twice.
// A run folder counts once its results.json is written: a run still going (or killed, waiting for `live-evals
// results`) has none and is never selected or removed. Dot folders (Vitest's `.attachments`, the judge cache) and
// links are not runs.

import { lstat, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import { DEFAULT_MODELS } from '../config/defaults.ts'
import { finishedIncomplete, loadGateFile, MAX_RESULTS_FILE_BYTES } from '../gate/load.ts'

export interface FinishedRun {
  /** The run folder. */
  directory: string
  /** Its results.json. */
  resultsFile: string
  /**
   * Runs of one group replace each other: `<phase>/<architecture>`, `/remote` for a remote client assistant, and
   * `<phase>/<model>/<architecture>` for a model other than the default.
   */
  group: string
  /** When results.json was last written (its mtime, ms). */
  writtenAtMs: number
}

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The group of a results document, or null when it is not one (then the folder is left alone). */
function groupOf(document: unknown): string | null {
  if (!isObject(document) || !isObject(document.run)) return null
  const { module, configuration } = document.run
  if (typeof module !== 'string' || !isObject(configuration)) return null
  const mode = typeof configuration.assistant_mode === 'string' ? configuration.assistant_mode : 'unknown'
  const remote = typeof configuration.assistant_endpoint === 'string' ? '/remote' : ''
  // Each model of a model matrix is its own group; the default model stays implicit, as in every older run.
  const model =
    typeof configuration.model === 'string' && configuration.model !== DEFAULT_MODELS.live_model
      ? `${configuration.model}/`
      : ''
  return `${module}/${model}${mode}${remote}`
}

async function finishedRunIn(directory: string): Promise<FinishedRun | null> {
  const resultsFile = join(directory, RESULTS_FILE)
  let size: number
  let writtenAtMs: number
  try {
    const info = await stat(resultsFile)
    if (!info.isFile()) return null
    size = info.size
    writtenAtMs = info.mtimeMs
  } catch {
    return null
  }
  if (size > MAX_RESULTS_FILE_BYTES) return null
  let document: unknown
  try {
    document = JSON.parse(await readFile(resultsFile, 'utf8'))
  } catch {
    return null
  }
  const group = groupOf(document)
  return group === null ? null : { directory, resultsFile, group, writtenAtMs }
}

/** Every finished run directly inside `resultsDir`, oldest first (ties by folder name). Throws when it is unreadable. */
export async function finishedRuns(resultsDir: string): Promise<FinishedRun[]> {
  const entries = await readdir(resultsDir, { withFileTypes: true })
  const runs: FinishedRun[] = []
  for (const entry of entries) {
    if (entry.name.startsWith('.') || !entry.isDirectory()) continue
    const directory = join(resultsDir, entry.name)
    // Dirent says what the entry itself is; lstat again so a folder swapped for a link is not followed.
    if (!(await lstat(directory)).isDirectory()) continue
    const run = await finishedRunIn(directory)
    if (run !== null) runs.push(run)
  }
  return runs.sort((a, b) => a.writtenAtMs - b.writtenAtMs || a.directory.localeCompare(b.directory))
}

/** The runs of each group, oldest first. */
export function byGroup(runs: readonly FinishedRun[]): Map<string, FinishedRun[]> {
  const groups = new Map<string, FinishedRun[]>()
  for (const run of runs) groups.set(run.group, [...(groups.get(run.group) ?? []), run])
  return groups
}

/**
 * The run of a group (oldest first) that `gate --latest` judges: the newest that is whole, or that finished
 * incomplete (the gate then refuses it by name; an older whole run must not pass for it). Newer runs that never
 * finished or were filtered are passed over, each told to `onSkip` with why. `prune` keeps the same run, so the
 * gate always finds it. With `allowPartial` the newest run is taken as it is.
 */
export async function runToJudge(
  runs: readonly FinishedRun[],
  allowPartial: boolean,
  onSkip: (run: FinishedRun, partial: string) => void = () => {},
): Promise<FinishedRun | null> {
  for (const run of [...runs].reverse()) {
    const { partial, document } = await loadGateFile(run.resultsFile)
    if (partial === null || allowPartial || finishedIncomplete(document.run)) return run
    onSkip(run, partial)
  }
  return null
}
