// Ending a rows journal after the fact, for `live-evals results <run-dir>`. A journal without an end line makes
// every later run say "an earlier run did not finish", so a rebuild ends it: with `killed` when the results
// were rebuilt from the journal (they are partial), or with the run's own verdict when the run had written its
// complete results file before it was stopped (killed between writing results.json and ending its journal);
// such a file is kept as it is, never relabelled. A `killed` end line may be followed by more lines: a run that
// was still running when someone rebuilt it goes on appending, and its own end line then supersedes.
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs'
import { endedByItself } from '../reporting/extensions/completion.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { ResultsDocument } from '../reporting/result-schema.ts'
import { parseResultsDocument } from '../reporting/results-file.ts'
import { resolveArtifactPathSync } from './destinations.ts'
import { RowsJournalError } from './errors.ts'
import type { JournalEnd, JournalEndReason } from './rows-journal-format.ts'
import type { ReadRowsJournal } from './rows-journal-read.ts'

/**
 * The journal's results file when the run itself wrote it at its end: it belongs to the journal's run and is not
 * marked as stopped early (`interrupted`, `killed`: results written at a signal or rebuilt). A run that ended with
 * spec files that failed to load or duplicates refused wrote every row it had, with markers its journal never holds
 * (which files, which duplicates, a filter's `selection`): such a file is kept too, so those markers survive. Null
 * otherwise (missing, stopped early, unreadable, another run's).
 */
export function completeResultsOf(journal: ReadRowsJournal): ResultsDocument | null {
  const document = runResultsOf(journal)
  const completion = document?.run.configuration[EXTENSION_KEY]?.completion
  return completion === undefined || endedByItself(completion) ? document : null
}

/**
 * The journal's results file when it parses and belongs to the journal's run (same run id), whatever its markers;
 * null otherwise (missing, unreadable, another run's).
 */
export function runResultsOf(journal: ReadRowsJournal): ResultsDocument | null {
  try {
    const file = resolveArtifactPathSync(journal.runDir, journal.header.results_file)
    const document = parseResultsDocument(readFileSync(file, 'utf8'), { source: file })
    return document.run.id === journal.header.run.id ? document : null
  } catch {
    return null
  }
}

/**
 * The end reason of a run that wrote its results at its end, as the run would have written it: Vitest fails a run
 * with failed rows, and one whose spec file failed to load or whose duplicate test was refused (its `completion`).
 */
export function endReasonOf(document: ResultsDocument): Extract<JournalEndReason, 'passed' | 'failed'> {
  const { failed, infrastructure_errors: infrastructure } = document.summary
  const incomplete = document.run.configuration[EXTENSION_KEY]?.completion !== undefined
  return failed + infrastructure > 0 || incomplete ? 'failed' : 'passed'
}

/**
 * Appends the end line to a journal read from disk (fsynced), first cutting off a torn last line so the end
 * line starts a line of its own. Throws RowsJournalError naming the file.
 */
export function endJournalFile(
  journal: ReadRowsJournal,
  reason: JournalEndReason,
  at = new Date(),
): JournalEnd {
  const end: JournalEnd = { reason, at: at.toISOString() }
  const bytes = Buffer.from(`${JSON.stringify({ end })}\n`, 'utf8')
  let descriptor: number | null = null
  try {
    descriptor = openSync(journal.file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW)
    if (journal.tornLastLine !== null) {
      ftruncateSync(descriptor, fstatSync(descriptor).size - journal.tornLastLine.bytes)
    }
    for (let offset = 0; offset < bytes.length; )
      offset += writeSync(descriptor, bytes, offset, bytes.length - offset)
    fsyncSync(descriptor)
    return end
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new RowsJournalError(journal.file, `The rows journal ${journal.file} cannot be ended (${code}).`)
  } finally {
    if (descriptor !== null) closeSync(descriptor)
  }
}
