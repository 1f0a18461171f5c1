// Reading the gate's results files from disk. Every document goes through parseResultsDocument; this file only
// adds what a gate must know beyond the document: whether the run was partial.
//
// Partial results are recognised two ways:
// - the registered run extension `completion` (run.configuration.live_evals.completion, see
//   src/reporting/extensions/completion.ts): an interrupted run writes it as it stops, and `live-evals results`
//   writes it when it rebuilds a killed run's results from the journal;
// - the run's rows journal beside the file (rows.jsonl, src/artifacts/) has no end line (killed, or still
//   running) or ended `interrupted`, for a results.json written before the run was stopped.
// - the registered run extension `selection`: Vitest's filters (-t, tags, spec files) chose part of the run.
// An older, never-registered `run.configuration.live_evals.interrupted: true` is still read (and removed before
// the strict run block is parsed), so files marked that way stay refused rather than unreadable.

import { basename, dirname } from 'node:path'
import { journalFilesIn, readRowsJournal } from '../artifacts/rows-journal-read.ts'
import { describeInputFileRefusal, InputFileError, readInputFile } from '../inputs/read-input-file.ts'
import { ReportingError } from '../reporting/errors.ts'
import { duplicateScenarioText, endedByItself, plannedText } from '../reporting/extensions/completion.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { RunMetadata } from '../reporting/result-schema.ts'
import { parseResultsDocument, takeInterruptedMarker } from '../reporting/results-file.ts'
import { GateInputError } from './errors.ts'
import type { GateFile } from './rows.ts'

/** Limit on a results file's size: a document larger than this is not a run's results. */
export const MAX_RESULTS_FILE_BYTES = 256 * 1024 * 1024

/**
 * Whether a run finished (Vitest ended it) without every spec file's scenarios: a spec file failed to load, or two
 * spec files evaluated one scenario and one was refused. Unlike an interrupted or killed run (never finished) or a
 * filtered one (a deliberate part), such a run is the newest finished run of its project, so `gate --latest` takes
 * it and refuses it rather than judge an older run: a pull request whose spec files broke must not pass on
 * yesterday's results.
 */
export function finishedIncomplete(run: RunMetadata): boolean {
  const live = run.configuration[EXTENSION_KEY]
  return live?.completion !== undefined && endedByItself(live.completion) && live.selection === undefined
}

/**
 * The registered marker's reading, in the words the gate's refusal quotes; null for a run that ended. The ending
 * leads; spec files that failed and duplicates refused that the marker lists beside another ending (a run stopped
 * after a spec file failed, a merge of shards) are named after it, so no listed gap goes unsaid.
 */
export function completionPartiality(run: RunMetadata): string | null {
  const completion = run.configuration[EXTENSION_KEY]?.completion
  if (completion === undefined) return null
  const failed = (completion.failed_spec_files ?? []).map(({ file, error }) => `${file} (${error})`)
  const refused = (completion.duplicate_scenarios ?? []).map(duplicateScenarioText)
  const failedText =
    `spec file${failed.length === 1 ? '' : 's'} of the run failed before ${failed.length === 1 ? 'its' : 'their'} ` +
    `scenarios ran: ${failed.join('; ')}`
  const refusedText = `scenarios evaluated by two spec files ran in whichever claimed them first: ${refused.join('; ')}`
  const stopped =
    `the run ${completion.ending === 'killed' ? 'was killed' : 'was interrupted'} after ` +
    `${completion.finished_rows} of ${plannedText(completion)}`
  const lead =
    completion.ending === 'spec_files_failed'
      ? `${failedText}; ${completion.finished_rows} row${completion.finished_rows === 1 ? '' : 's'} of the other spec files`
      : completion.ending === 'duplicate_scenarios'
        ? refusedText
        : stopped
  const besides = [
    failed.length === 0 || completion.ending === 'spec_files_failed' ? null : failedText,
    refused.length === 0 || completion.ending === 'duplicate_scenarios' ? null : refusedText,
  ].filter((text) => text !== null)
  return `${[lead, ...besides].join('; also ')} (run.configuration.${EXTENSION_KEY}.completion)`
}

/**
 * The `selection` marker's reading (src/reporting/extensions/selection.ts): a run that Vitest's filters cut down.
 * Decision: it is refused like an interrupted run, also when named explicitly, and judged with --allow-partial. A
 * one-scenario `-t` run must never gate a pull request green by accident; whoever means to judge it says so.
 */
export function selectionPartiality(run: RunMetadata): string | null {
  const selection = run.configuration[EXTENSION_KEY]?.selection
  if (selection === undefined) return null
  const left = selection.spec_files_left_out
  const filters = [
    selection.test_name_filter === null ? null : `the test-name filter /${selection.test_name_filter}/`,
    selection.tags_filter.length === 0 ? null : `the tag filter ${selection.tags_filter.join(' ')}`,
    left.length === 0
      ? null
      : `a spec-file filter that left out ${left.length === 1 ? left[0] : `${left.length} spec files`}`,
  ].filter((filter) => filter !== null)
  const { selected_trials: selectedTrials, offered_trials: offeredTrials } = selection
  const trials =
    selectedTrials === undefined || offeredTrials === undefined
      ? ''
      : ` (${selectedTrials} of ${offeredTrials} trials)`
  // A line filter (`one.spec.ts:42`), a UI rerun of chosen tests, `.only` or a `.skip` without a note sets no
  // pattern Vitest can tell.
  const chosenBy =
    filters.length === 0 ? 'a line filter, a rerun of chosen tests, .only or .skip' : filters.join(' and ')
  return (
    `a filtered run: ${selection.selected_scenarios} of ${selection.offered_scenarios} scenarios${trials}, ` +
    `chosen by ${chosenBy} (run.configuration.${EXTENSION_KEY}.selection)`
  )
}

/**
 * What the document's own markers say is partial about it (`completion`, then `selection`), in the words the gate,
 * the report and `live-evals results` all print; null for a whole run. The rows journal is read separately.
 */
export function markedPartiality(run: RunMetadata): string | null {
  return completionPartiality(run) ?? selectionPartiality(run)
}

function journalPartiality(path: string): string | null {
  const runDir = dirname(path)
  for (const journalFile of journalFilesIn(runDir)) {
    let journal: ReturnType<typeof readRowsJournal>
    try {
      journal = readRowsJournal(runDir, journalFile)
    } catch (error) {
      return `its rows journal ${journalFile} cannot be read: ${(error as Error).message}`
    }
    if (journal.header.results_file !== basename(path)) continue
    if (journal.end === null)
      return `its rows journal ${journalFile} has no end line: the run was killed or is running`
    if (journal.end.reason === 'interrupted') return `the run was interrupted (rows journal ${journalFile})`
  }
  return null
}

/** @throws GateInputError naming the file when it cannot be read or is not a valid results.json */
export async function loadGateFile(path: string): Promise<GateFile> {
  let text: string
  try {
    // The bounded reader: an oversized file is refused without being read, a device or a FIFO at once.
    text = Buffer.from(await readInputFile(path, MAX_RESULTS_FILE_BYTES)).toString('utf8')
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    const refusal = error.refusal
    throw new GateInputError(
      path,
      refusal.kind === 'too_large'
        ? `is ${refusal.bytes} bytes, over the ${MAX_RESULTS_FILE_BYTES}-byte limit`
        : refusal.kind === 'unreadable'
          ? `cannot be read (${refusal.code})`
          : describeInputFileRefusal(refusal),
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new GateInputError(path, `is not JSON (${(error as Error).message})`)
  }
  const interrupted = takeInterruptedMarker(value)
  try {
    const document = parseResultsDocument(value, { source: path })
    const partial =
      markedPartiality(document.run) ??
      (interrupted ? 'run.configuration.live_evals.interrupted is true' : journalPartiality(path))
    return { source: path, document, partial }
  } catch (error) {
    if (error instanceof ReportingError)
      throw new GateInputError(path, error.message.replace(`${path}: `, ''))
    throw error
  }
}
