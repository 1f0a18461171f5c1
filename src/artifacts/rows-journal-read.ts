// Reading a rows journal back and rebuilding results.json from it: after a kill or a power cut
// (`live-evals results <run-dir>`), or from a signal handler with the rows the writer holds. A last line cut short
// by a kill mid-append is detected and ignored (the row it held had not been acknowledged as written). Any other
// damage (a complete line that is not a journal line, a row key twice, a line after the end) is refused with the
// file and the line, because guessing would report results nobody produced.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCompletion } from '../reporting/extensions/completion.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { ResultsDocument, RunMetadata } from '../reporting/result-schema.ts'
import { buildResultsDocument, withRunExtensions } from '../reporting/results-document.ts'
import { resolveArtifactPathSync } from './destinations.ts'
import { RowsJournalError } from './errors.ts'
import type { RowsJournal } from './rows-journal.ts'
import { ROWS_JOURNAL_FILE } from './rows-journal.ts'
import { completeResultsOf, endJournalFile, endReasonOf, runResultsOf } from './rows-journal-ending.ts'
import {
  type JournalEnd,
  JournalEndLineSchema,
  type JournalHeader,
  JournalHeaderSchema,
  JournalPlannedLineSchema,
  JournalRowLineSchema,
} from './rows-journal-format.ts'
import { jsonArtifactText, writeArtifact, writeArtifactSync } from './write.ts'

export interface ReadRowsJournal {
  /** Absolute path of the journal. */
  file: string
  runDir: string
  header: JournalHeader
  /** The rows, in the order they finished, as written (validated when the document is built). */
  rows: Record<string, unknown>[]
  /** The 1-based line of each row, parallel to `rows`. */
  rowLines: number[]
  /** Scenario ids planned after line 1 (`planned` lines), in collection order. */
  planned: string[]
  /** The last end line, or null when the run never ended (killed, or still running) and was not rebuilt. */
  end: JournalEnd | null
  /** A last line without its newline, left by a kill mid-append; ignored. */
  tornLastLine: { line: number; bytes: number } | null
}

export interface JournalCompletion {
  /** True when the run ended by itself (passed or failed); false when interrupted or killed. */
  complete: boolean
  /** How the run ended: the end line's reason, or `killed` when there is none. */
  ending: JournalEnd['reason'] | 'killed'
  finishedRows: number
  /** Scenarios the run planned (its dataset order); the rows of a complete run may be fewer (filters, skips). */
  plannedScenarios: number
  /** The trials each planned scenario runs (the journal's `trials`; 1 when absent): the rows are trials when > 1. */
  trialsPerScenario: number
}

/** Reads the journal `journalFile` of `runDir`. Throws RowsJournalError naming the file (and the line). */
export function readRowsJournal(runDir: string, journalFile = ROWS_JOURNAL_FILE): ReadRowsJournal {
  const file = resolveArtifactPathSync(runDir, journalFile)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new RowsJournalError(file, `The rows journal ${file} cannot be read (${code}).`)
  }
  const lines = text.split('\n')
  const last = lines.pop() as string // after the final newline: empty unless the last line is torn
  const tornLastLine = last === '' ? null : { line: lines.length + 1, bytes: Buffer.byteLength(last) }
  const refuse = (line: number, problem: string) =>
    new RowsJournalError(file, `The rows journal ${file} is damaged at line ${line}: ${problem}.`)
  if (lines.length === 0) {
    throw new RowsJournalError(
      file,
      `The rows journal ${file} has no complete first line (the run was stopped before it recorded anything).`,
    )
  }
  const header = JournalHeaderSchema.safeParse(parseLine(lines[0] as string))
  if (!header.success) throw refuse(1, `it is not a journal's first line (${firstIssue(header.error)})`)

  const rows: Record<string, unknown>[] = []
  const rowLines: number[] = []
  const lineOfKey = new Map<string, number>()
  let end: JournalEnd | null = null
  const planned: string[] = []
  for (const [index, content] of lines.entries()) {
    if (index === 0) continue
    const line = index + 1
    // A rebuild's `killed` end may be followed by the lines of a run that was still running (rows-journal-ending.ts).
    if (end !== null && end.reason !== 'killed') throw refuse(line, 'a line follows the end line')
    const value = parseLine(content)
    const ending = JournalEndLineSchema.safeParse(value)
    if (ending.success) {
      end = ending.data.end
      continue
    }
    // Anything after a rebuild's `killed` end is the still-running run's, so the run has not ended after all.
    end = null
    const plannedLine = JournalPlannedLineSchema.safeParse(value)
    if (plannedLine.success) {
      planned.push(...plannedLine.data.planned.scenario_ids)
      continue
    }
    const row = JournalRowLineSchema.safeParse(value)
    if (!row.success) throw refuse(line, `it is neither a row nor the end line (${firstIssue(row.error)})`)
    const keyText = JSON.stringify([row.data.key.scenario_id, row.data.key.trial])
    const earlier = lineOfKey.get(keyText)
    if (earlier !== undefined) {
      throw refuse(
        line,
        `scenario "${row.data.key.scenario_id}" trial ${row.data.key.trial} is also at line ${earlier}`,
      )
    }
    lineOfKey.set(keyText, line)
    rows.push(row.data.row)
    rowLines.push(line)
  }
  return { file, runDir, header: header.data, rows, rowLines, planned, end, tornLastLine }
}

function parseLine(content: string): unknown {
  try {
    return JSON.parse(content)
  } catch {
    return undefined // reported by the schema that refuses it, with the line
  }
}

function firstIssue(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]
  if (issue === undefined) return 'not JSON'
  return issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`
}

/** What a journal says about its run: its first line, its rows, its `planned` lines and its end. */
interface JournalFacts {
  header: JournalHeader
  rows: readonly unknown[]
  /** Ids from `planned` lines; absent counts as none (a journal of a run whose scenarios were all in line 1). */
  planned?: readonly string[]
  end: JournalEnd | null
}

/** The run's scenarios in report order: line 1's dataset order, then those collected later. */
export function plannedScenarioOrder(journal: Pick<JournalFacts, 'header' | 'planned'>): string[] {
  return [...new Set([...journal.header.dataset_order, ...(journal.planned ?? [])])]
}

export function journalCompletion(journal: JournalFacts): JournalCompletion {
  const ending = journal.end?.reason ?? 'killed'
  return {
    complete: ending === 'passed' || ending === 'failed',
    ending,
    finishedRows: journal.rows.length,
    plannedScenarios: plannedScenarioOrder(journal).length,
    trialsPerScenario: journal.header.trials ?? 1,
  }
}

/**
 * The run block of a journal's results: `run` (the journal's first line, or what the run knew better), plus the
 * `completion` marker (run.configuration.live_evals.completion) when the run did not end by itself, so partial
 * results never pass for a whole run. The features `run` carries are kept (datasets, a filter's `selection`), and
 * so are the spec files and duplicates an earlier marker named: the stop names the ending, they stay listed.
 */
export function runBlockOf(journal: JournalFacts, run: RunMetadata = journal.header.run): RunMetadata {
  const completion = journalCompletion(journal)
  if (completion.complete) return run
  const earlier = run.configuration[EXTENSION_KEY]?.completion
  const marker = runCompletion({
    stopped: completion.ending === 'killed' ? 'killed' : 'interrupted',
    failedSpecFiles: earlier?.failed_spec_files,
    duplicates: earlier?.duplicate_scenarios,
    finishedRows: completion.finishedRows,
    plannedScenarios: completion.plannedScenarios,
    trialsPerScenario: completion.trialsPerScenario,
  })
  return withRunExtensions(run, { completion: marker })
}

/**
 * results.json of the journal's run: its run block, its rows in dataset order, the summary of those rows. `run`
 * replaces the journal's first line as the run block when a results file of the run knew more.
 */
export function resultsDocumentFromJournal(
  journal: ReadRowsJournal,
  run: RunMetadata = journal.header.run,
): ResultsDocument {
  return buildResultsDocument(runBlockOf(journal, run), journal.rows, plannedScenarioOrder(journal), {
    origins: journal.rowLines.map((line) => `${journal.file} line ${line}`),
  })
}

export interface RebuiltResults {
  /** Absolute path of the results file written (or kept). */
  path: string
  document: ResultsDocument
  journal: ReadRowsJournal
  completion: JournalCompletion
  /**
   * Why the results file was kept as it is, not rebuilt; null when it was rebuilt. `written_before_stop`: the run
   * wrote its results at its end (complete, or marked for spec files that failed to load or duplicates refused),
   * then was killed before it ended its journal. `run_ended`: the journal has the
   * run's own end line and the run wrote its results file.
   */
  kept: 'written_before_stop' | 'run_ended' | null
}

/**
 * Rebuilds the results file of `runDir` from its journal and writes it atomically (old file, new file, never cut),
 * then ends a journal that had no end line, so later runs no longer report the run as unfinished. A complete
 * results file the run wrote itself is kept, never relabelled as partial (rows-journal-ending.ts). So is any
 * results file of a run whose journal has the run's own end (passed, failed, interrupted): the run wrote it with
 * what only its reporter knew (a filter's `selection`, spec files that failed to load, refused duplicate
 * scenarios, its sources), and the journal's first line was written before any of that, so a rebuild would strip
 * those markers and a partial run would read as whole. A `killed` end was written by an earlier rebuild, and the
 * run may have gone on journaling since: rebuilt, keeping the markers and sources that rebuild's file carried.
 */
export async function rebuildResultsFile(
  runDir: string,
  journalFile = ROWS_JOURNAL_FILE,
): Promise<RebuiltResults> {
  const journal = readRowsJournal(runDir, journalFile)
  const path = resolveArtifactPathSync(runDir, journal.header.results_file)
  const written = runResultsOf(journal)
  if (journal.end !== null && journal.end.reason !== 'killed' && written !== null) {
    return { path, document: written, journal, completion: journalCompletion(journal), kept: 'run_ended' }
  }
  const complete = journal.end === null ? completeResultsOf(journal) : null
  if (complete !== null) {
    const end = endJournalFile(journal, endReasonOf(complete))
    const ended = { ...journal, end }
    return {
      path,
      document: complete,
      journal: ended,
      completion: journalCompletion(ended),
      kept: 'written_before_stop',
    }
  }
  // A results file of the run that is kept no longer (an earlier rebuild's, which the run outlived) still knew
  // what the journal's first line does not: its markers and sources are rebuilt with the rows.
  const document = resultsDocumentFromJournal(journal, written?.run)
  const rebuilt = await writeArtifact(runDir, journal.header.results_file, jsonArtifactText(document), {
    durableName: true,
  })
  const ended = journal.end === null ? { ...journal, end: endJournalFile(journal, 'killed') } : journal
  return { path: rebuilt, document, journal: ended, completion: journalCompletion(ended), kept: null }
}

/**
 * For SIGINT/SIGTERM, when Vitest exits about 1 ms after the signal: marks the journal interrupted and writes the
 * results file from the rows the writer holds, synchronously (write, fsync, rename, fsync the folder). Returns
 * the results file's path. `runBlock` replaces the journal's run block when the writer knows more by now (the
 * sources of the scenarios that ran).
 */
export function writeInterruptedResultsSync(
  journal: RowsJournal,
  runBlock: RunMetadata = journal.header.run,
): string {
  journal.end('interrupted')
  const { header } = journal
  const facts = { header, rows: journal.rows, planned: journal.planned }
  const run = runBlockOf({ ...facts, end: { reason: 'interrupted', at: '' } }, runBlock)
  const document = buildResultsDocument(run, journal.rows, plannedScenarioOrder(facts))
  return writeArtifactSync(journal.runDir, header.results_file, jsonArtifactText(document))
}

/** The journals of a run folder: `rows.jsonl`, and one per shard (`rows.shard-1-of-2.jsonl`). */
export function journalFilesIn(runDir: string): string[] {
  try {
    return readdirSync(runDir)
      .filter((name) => /^rows(\.[A-Za-z0-9_-]+)*\.jsonl$/.test(name))
      .sort()
  } catch {
    return []
  }
}

/**
 * Run folders under `resultsDir` with a journal that has no end line and no complete results file: runs that
 * were killed (or are running now) and not rebuilt since. A new run prints `live-evals results <folder>` for each.
 */
export function unfinishedRunDirectories(resultsDir: string): string[] {
  let entries: { name: string; isDirectory(): boolean }[]
  try {
    entries = readdirSync(resultsDir, { withFileTypes: true })
  } catch {
    return []
  }
  const unfinished: string[] = []
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const runDir = join(resultsDir, entry.name)
    // Ended, or the run wrote its complete results before it was stopped: nothing to rebuild either way.
    const ended = (journalFile: string) => {
      try {
        const journal = readRowsJournal(runDir, journalFile)
        return journal.end !== null || completeResultsOf(journal) !== null
      } catch {
        return false // damaged counts as unfinished: `live-evals results` says why
      }
    }
    if (journalFilesIn(runDir).some((journalFile) => !ended(journalFile))) unfinished.push(runDir)
  }
  return unfinished.sort()
}
