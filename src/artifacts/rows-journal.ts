// The durable rows journal: each finished result row reaches the disk as it finishes, so a run stopped by a
// signal, a kill or a power cut still has the results of what finished (see rows-journal-format.ts for the
// lines). One writer per journal (the main process's reporter); the file is created exclusively and only ever
// appended to. Every append is synchronous and fsynced before it returns: it costs about a millisecond per row
// (a row takes seconds to produce), and it means an append that returned is on disk even if the process is
// killed right after, including from a signal handler that has no event loop left to wait on.
import { closeSync, constants, fsyncSync, openSync, writeSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { redactText } from '../config/outbound-redaction.ts'
import { type ResultItem, ResultItemSchema } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'
import { syncFolder } from './atomic-file.ts'
import { resolveArtifactPath } from './destinations.ts'
import { RowsJournalError } from './errors.ts'
import { PRIVATE_FILE_MODE } from './private-directories.ts'
import { RESULTS_FILE } from './results-file-name.ts'
import {
  JOURNAL_KIND,
  JOURNAL_VERSION,
  type JournalEndReason,
  type JournalHeader,
  JournalHeaderSchema,
} from './rows-journal-format.ts'

/** The journal's name in a run folder (a shard's results file gets its own journal: see journalFileFor). */
export const ROWS_JOURNAL_FILE = 'rows.jsonl'

/** The journal that goes with a results file: `rows.jsonl` for results.json, `rows.shard-1-of-2.jsonl` for a shard's. */
export function journalFileFor(resultsFile: string): string {
  const shard = /^results\.(.+)\.json$/.exec(resultsFile)?.[1]
  return shard === undefined ? ROWS_JOURNAL_FILE : `rows.${shard}.jsonl`
}

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

export interface RowsJournalStart {
  /** results.json's `run` block for this run (already redacted). */
  run: JournalHeader['run']
  /** Scenario ids in dataset order: the order rows are reported in. */
  datasetOrder: readonly string[]
  /** The results file rebuilt from this journal; `results.json` unless a shard writes its own. */
  resultsFile?: string
  /** The trials each scenario runs (execution.trials); 1 when absent. */
  trials?: number
}

export class RowsJournal {
  /** Absolute path of the journal file. */
  readonly file: string
  readonly runDir: string
  readonly header: JournalHeader
  #descriptor: number | null
  readonly #rows: ResultItem[] = []
  /** Line number (1-based) of each appended key, to name both lines of a repeat. */
  readonly #lineOfKey = new Map<string, number>()
  /** Scenario ids planned after line 1 (`planned` lines), in the order they were collected. */
  readonly #planned: string[] = []
  /** Lines written so far (the header is line 1): names the line of each row. */
  #lines = 0
  #ended = false

  private constructor(runDir: string, file: string, header: JournalHeader, descriptor: number) {
    this.runDir = runDir
    this.file = file
    this.header = header
    this.#descriptor = descriptor
  }

  /**
   * Starts the journal of a run: creates the file exclusively (0600, never through a link, never over an
   * existing journal) and writes its first line. Throws ArtifactPathError or RowsJournalError.
   */
  static async create(runDir: string, start: RowsJournalStart, journalFile?: string): Promise<RowsJournal> {
    const resultsFile = start.resultsFile ?? RESULTS_FILE
    const name = journalFile ?? journalFileFor(resultsFile)
    const file = await resolveArtifactPath(runDir, name)
    const header: JournalHeader = {
      journal: JOURNAL_KIND,
      version: JOURNAL_VERSION,
      run: start.run,
      dataset_order: [...start.datasetOrder],
      ...((start.trials ?? 1) > 1 ? { trials: start.trials } : {}),
      results_file: resultsFile,
    }
    // The first line is what a rebuild trusts: it is checked before it is written, not when it is needed.
    const checked = JournalHeaderSchema.safeParse(header)
    if (!checked.success) {
      const issue = checked.error.issues[0]
      throw new RowsJournalError(
        file,
        `The rows journal ${file} cannot start: its first line would be invalid (${issue?.path.join('.')}: ${issue?.message}).`,
      )
    }
    let descriptor: number
    try {
      descriptor = openSync(file, CREATE_FLAGS, PRIVATE_FILE_MODE)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      const why = code === 'EEXIST' ? 'it exists already (a run folder has one journal)' : `${code ?? error}`
      throw new RowsJournalError(file, `The rows journal ${file} cannot be created: ${why}.`)
    }
    const journal = new RowsJournal(resolve(runDir), file, header, descriptor)
    journal.#appendLine(header)
    syncFolder(dirname(file)) // the journal's name survives a power cut, not only its lines
    return journal
  }

  /** The rows appended so far, in the order they finished. */
  get rows(): readonly ResultItem[] {
    return this.#rows
  }

  get ended(): boolean {
    return this.#ended
  }

  /** Scenario ids planned after the first line (spec files that name their own scenarios), in collection order. */
  get planned(): readonly string[] {
    return this.#planned
  }

  /**
   * Records scenarios a collected spec file registers that the first line does not list (flushed like a row).
   * Ids already planned are left out; nothing is written when none is new.
   */
  plan(scenarioIds: readonly string[]): void {
    if (this.#ended)
      throw new RowsJournalError(
        this.file,
        `The rows journal ${this.file} has ended; nothing can be planned.`,
      )
    const known = new Set([...this.header.dataset_order, ...this.#planned])
    const added = [...new Set(scenarioIds)].filter((id) => id !== '' && !known.has(id))
    if (added.length === 0) return
    this.#appendLine({ planned: { scenario_ids: added } })
    this.#planned.push(...added)
  }

  /**
   * Appends one finished row and flushes it to disk before returning. A row must validate as a results.json row
   * (a phase builds it with buildResultRow, which never yields an invalid one), and its (scenario id, trial) must
   * be new to this journal.
   */
  append(row: ResultItem): void {
    if (this.#ended)
      throw new RowsJournalError(this.file, `The rows journal ${this.file} has ended; no row can follow.`)
    const parsed = ResultItemSchema.safeParse(row)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new RowsJournalError(
        this.file,
        `Row of scenario ${JSON.stringify(row?.scenario_id)} is not a valid results.json row (${issue?.path.join('.')}: ${issue?.message}); build it with buildResultRow.`,
      )
    }
    const key = rowKeyOf(parsed.data)
    const keyText = JSON.stringify([key.scenario_id, key.trial])
    const earlier = this.#lineOfKey.get(keyText)
    if (earlier !== undefined) {
      throw new RowsJournalError(
        this.file,
        `Scenario "${key.scenario_id}" trial ${key.trial} is in ${this.file} already (line ${earlier}); a run holds each (scenario id, trial) once.`,
      )
    }
    this.#appendLine({ key, row: parsed.data })
    this.#rows.push(parsed.data)
    this.#lineOfKey.set(keyText, this.#lines)
  }

  /** Marks the journal finished (the run ended, or was interrupted and wrote its results); nothing follows. */
  end(reason: JournalEndReason, at: Date = new Date()): void {
    if (this.#ended) return
    this.#appendLine({ end: { reason, at: at.toISOString() } })
    this.#ended = true
  }

  /** Closes the file; the journal stays on disk. Safe to call twice. */
  close(): void {
    if (this.#descriptor === null) return
    closeSync(this.#descriptor)
    this.#descriptor = null
  }

  #appendLine(value: unknown): void {
    if (this.#descriptor === null)
      throw new RowsJournalError(this.file, `The rows journal ${this.file} is closed.`)
    // One write of the whole line: a kill mid-way leaves at most one torn last line, which readers ignore.
    const bytes = Buffer.from(`${redactText(JSON.stringify(value))}\n`, 'utf8')
    try {
      for (let offset = 0; offset < bytes.length; )
        offset += writeSync(this.#descriptor, bytes, offset, bytes.length - offset)
      fsyncSync(this.#descriptor)
      this.#lines += 1
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      throw new RowsJournalError(this.file, `The rows journal ${this.file} cannot be written (${code}).`)
    }
  }
}
