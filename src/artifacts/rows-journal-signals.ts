// What SIGINT and SIGTERM leave behind. `vitest run` exits about 1 ms after either signal (its logger calls
// process.exit from a timer), so neither the reporters' end of run nor the global teardown runs: whatever must
// reach the disk has to be written synchronously, inside the signal's own listener. The reporter registers each
// run it writes (its folder and, once open, its rows journal); at the signal every registered run is settled:
// - a journal with finished rows: the interrupted results file is written from them (write, fsync, rename,
//   fsync the folder) and the journal gets its `interrupted` end line;
// - a run that finished nothing: its empty journal goes, and so do its shard claim and folder when they are
//   empty; a folder that holds artifacts of a scenario cut short keeps them and gets results without rows.
// Then the process goes on exiting as Vitest decided; if nothing ends it soon, it ends by the signal.
import { readdirSync, rmdirSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { RunMetadata } from '../reporting/result-schema.ts'
import { shellWord } from '../reporting/shell-word.ts'
import { syncFolder } from './atomic-file.ts'
import { CLAIMS_FOLDER } from './claims-folder.ts'
import { RESULTS_FILE } from './results-file-name.ts'
import type { RowsJournal } from './rows-journal.ts'
import { journalCompletion, writeInterruptedResultsSync } from './rows-journal-read.ts'

export interface InterruptibleRun {
  /** The run folder. */
  directory: string
  /** A shard's claim folder inside it, or null. */
  claim: string | null
  /** The run's journal once open; null before the first row could be recorded. */
  journal: RowsJournal | null
  /** The run block as the rows so far make it (their sources); the journal's first line when absent. */
  runBlock?: () => RunMetadata
}

export interface SettledRun {
  directory: string
  /** The interrupted results file written, or null when the run finished nothing. */
  resultsFile: string | null
  /** Rows in the results file: finished scenarios, or in a trials run finished trials. */
  finishedRows: number
  /** The scenarios the run planned, as its completion marker counts them; 0 when it finished nothing. */
  plannedScenarios: number
  /** The trials each scenario runs (execution.trials); 1 without trials. */
  trialsPerScenario: number
  /** Folders removed because the run left nothing in them. */
  removed: string[]
}

const watched = new Set<InterruptibleRun>()
const SIGNALS = ['SIGINT', 'SIGTERM'] as const
let installed = false

/** Registers a run to settle at SIGINT/SIGTERM; returns the function that unregisters it (its run ended). */
export function watchRunForInterrupt(run: InterruptibleRun): () => void {
  // The reporter's registration of a folder replaces the bare one made when the folder was reserved.
  for (const earlier of watched) {
    if (earlier.directory === run.directory && earlier.journal === null) watched.delete(earlier)
  }
  watched.add(run)
  return () => watched.delete(run)
}

/**
 * Watches a run folder from the moment it is reserved, before any journal exists: a SIGINT/SIGTERM in a run's
 * first seconds removes it if it is still empty, instead of leaving an empty folder nothing refers to.
 */
export function watchReservedRunFolder(directory: string): () => void {
  installInterruptHandlers(signalledRunLine)
  return watchRunForInterrupt({ directory, claim: null, journal: null })
}

/** The line printed for a run settled at an interrupt. */
export function interruptedRunLine(run: SettledRun): string | null {
  if (run.resultsFile !== null) {
    return `live-evals: interrupted; the results of ${finishedText(run)} are in ${run.resultsFile} (marked interrupted)`
  }
  if (run.removed.length > 0)
    return `live-evals: interrupted before any scenario finished; removed ${run.removed.join(', ')}`
  return null
}

/**
 * The line printed for a run settled by a signal. Its report is not written then (that is asynchronous work, and
 * the process ends with the handler), so the line says how to write it.
 */
export function signalledRunLine(run: SettledRun): string | null {
  const line = interruptedRunLine(run)
  // A shard's part (results.shard-<i>-of-<n>.json) has no report of its own: the merged results do.
  return line === null || basename(run.resultsFile ?? '') !== RESULTS_FILE
    ? line
    : `${line}; its report: npx live-evals report ${shellWord(run.directory)}`
}

/** The rows a settled run finished: scenarios, or in a trials run trials (each scenario's are k of its rows). */
function finishedText({
  finishedRows: rows,
  plannedScenarios: scenarios,
  trialsPerScenario: k,
}: SettledRun): string {
  if (k <= 1) return `${rows} finished scenario${rows === 1 ? '' : 's'}`
  const trials = `${rows} finished trial${rows === 1 ? '' : 's'}`
  return `${trials} of ${scenarios} scenario${scenarios === 1 ? '' : 's'} (${scenarios * k} planned)`
}

/** Settles one run synchronously (see the header); also the Ctrl-C path, where Vitest ends the run as `interrupted`. */
export function settleInterruptedRunSync(run: InterruptibleRun): SettledRun {
  const { journal } = run
  if (journal !== null && !journal.ended && (journal.rows.length > 0 || holdsMoreThan(run, journal))) {
    const resultsFile = writeInterruptedResultsSync(journal, run.runBlock?.())
    journal.close()
    // The counts of the completion marker just written (runBlockOf reads the same journal facts).
    const counts = journalCompletion({
      header: journal.header,
      rows: journal.rows,
      planned: journal.planned,
      end: null,
    })
    return {
      directory: run.directory,
      resultsFile,
      finishedRows: counts.finishedRows,
      plannedScenarios: counts.plannedScenarios,
      trialsPerScenario: counts.trialsPerScenario,
      removed: [],
    }
  }
  if (journal !== null && !journal.ended) {
    journal.close()
    unlinkSync(journal.file)
  }
  // The scenario claims are bookkeeping: with nothing else written they go with the run folder.
  if (!holdsMoreThan(run, null)) rmSync(join(run.directory, CLAIMS_FOLDER), { recursive: true, force: true })
  const removed = [run.claim, run.directory].filter(
    (folder): folder is string => folder !== null && removeIfEmpty(folder),
  )
  return {
    directory: run.directory,
    resultsFile: null,
    finishedRows: 0,
    plannedScenarios: 0,
    trialsPerScenario: 1,
    removed,
  }
}

/** Settles every registered run; each is settled once (it is unregistered as it is settled). */
export function settleWatchedRunsSync(): SettledRun[] {
  const settled: SettledRun[] = []
  for (const run of [...watched]) {
    watched.delete(run)
    try {
      settled.push(settleInterruptedRunSync(run))
    } catch (error) {
      // One run that cannot be settled must not keep the others from theirs.
      say(
        `live-evals: the interrupted results of ${run.directory} could not be written: ${(error as Error).message}`,
      )
    }
  }
  return settled
}

/**
 * Installs the SIGINT/SIGTERM listeners once per process. `describe` turns each settled run into the line
 * printed for it (written to stderr synchronously: the process may exit right after).
 */
export function installInterruptHandlers(describe: (run: SettledRun) => string | null): void {
  if (installed) return
  installed = true
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    for (const name of SIGNALS) process.off(name, onSignal)
    installed = false
    for (const run of settleWatchedRunsSync()) {
      const line = describe(run)
      if (line !== null) say(line)
    }
    // Vitest's own listener ends the process about 1 ms from now. Where nothing does (a listener removed at
    // close, another host), end it by the signal as Node would have without listeners; the timer does not
    // keep an otherwise finished process alive.
    setTimeout(() => process.kill(process.pid, signal), 100).unref()
  }
  for (const name of SIGNALS) process.on(name, onSignal)
}

function say(line: string): void {
  try {
    writeSync(2, `${line}\n`)
  } catch {
    // stderr closed: nothing to tell
  }
}

/**
 * Whether the run folder holds anything besides the journal, the shard claim and the scenario claims (artifacts of
 * a cut scenario).
 */
function holdsMoreThan(run: InterruptibleRun, journal: RowsJournal | null): boolean {
  const own = new Set([
    journal === null ? '' : basename(journal.file),
    run.claim === null ? '' : basename(run.claim),
    CLAIMS_FOLDER,
  ])
  try {
    return readdirSync(run.directory).some((name) => !own.has(name))
  } catch {
    return false
  }
}

function removeIfEmpty(folder: string): boolean {
  try {
    rmdirSync(folder)
  } catch {
    return false // not empty (it holds output), or gone already
  }
  try {
    syncFolder(dirname(folder))
  } catch {
    // the removal is what matters; its durability is best effort
  }
  return true
}
