// The rows journals of the runs this process writes, seen from the reporter: one journal per planned run, opened
// when the first test file starts (the global setup has provided the plan by then), one row appended as each
// test finishes, and the journal ended when the run ends. Every journal is also registered for SIGINT/SIGTERM
// (src/artifacts/rows-journal-signals.ts), so a run stopped by a signal still writes the results of what finished.
// Nothing here may fail a run: a journal that cannot be opened or appended to costs a line of output, and the
// results.json written at the end (from Vitest's own test states) stays the authority.
import { unlinkSync } from 'node:fs'
import { dirname } from 'node:path'
import { removeEmptyRunFolders } from '../src/artifacts/empty-run-folders.ts'
import { ArtifactsError } from '../src/artifacts/errors.ts'
import { RowsJournal } from '../src/artifacts/rows-journal.ts'
import type { JournalEndReason } from '../src/artifacts/rows-journal-format.ts'
import { unfinishedRunDirectories } from '../src/artifacts/rows-journal-read.ts'
import {
  type InterruptibleRun,
  installInterruptHandlers,
  interruptedRunLine,
  type SettledRun,
  settleInterruptedRunSync,
  signalledRunLine,
  watchRunForInterrupt,
} from '../src/artifacts/rows-journal-signals.ts'
import { shellWord } from '../src/reporting/shell-word.ts'
import type { RunPlan } from '../src/vitest/run-plan-schema.ts'
import { type FinishedScenarioTest, rowOfTest, runMetadataOf } from './run-results.ts'

interface OpenRun extends InterruptibleRun {
  unwatch: () => void
  /** The tests whose rows are journaled: their sources make the run block (runMetadataOf). */
  tests: FinishedScenarioTest[]
}

// The line printed for a run settled at an interrupt lives with the listeners (a reserved folder is watched
// before this reporter opens anything); re-exported for the reporter's Ctrl-C path.
export { interruptedRunLine }

export class RunJournals {
  readonly #plans: () => RunPlan[]
  readonly #log: (line: string) => void
  #opening: Promise<void> | null = null
  /** By run folder: a test's meta names the folder its row belongs to. */
  readonly #runs = new Map<string, OpenRun>()
  /** Tests whose row is in a journal: a test that reports again is not appended twice. */
  readonly #recorded = new Set<string>()

  constructor(plans: () => RunPlan[], log: (line: string) => void) {
    this.#plans = plans
    this.#log = log
  }

  /** Opens the journal of every planned run, once per run (later calls wait for the first). */
  open(): Promise<void> {
    this.#opening ??= this.#openAll()
    return this.#opening
  }

  async #openAll(): Promise<void> {
    installInterruptHandlers(signalledRunLine)
    const plans = this.#plans()
    const own = new Set(plans.flatMap((plan) => plan.runs.map((run) => run.directory)))
    const earlier = new Set(
      [...own]
        .flatMap((directory) => unfinishedRunDirectories(dirname(directory)))
        .filter((dir) => !own.has(dir)),
    )
    for (const directory of earlier) {
      this.#log(
        `live-evals: an earlier run did not finish (${directory}); rebuild its results with: live-evals results ${shellWord(directory)}`,
      )
    }
    // Folders of runs stopped before they recorded anything: removed once, and said once.
    const abandoned = [...new Set([...own].map((directory) => dirname(directory)))].flatMap((resultsDir) =>
      removeEmptyRunFolders(resultsDir, { keep: own }),
    )
    if (abandoned.length > 0) {
      this.#log(
        `live-evals: removed ${abandoned.length} empty run folder${abandoned.length === 1 ? '' : 's'} of runs stopped before they recorded anything: ${abandoned.join(', ')}`,
      )
    }
    for (const plan of plans) {
      for (const run of plan.runs) {
        if (this.#runs.has(run.directory)) continue
        let journal: RowsJournal | null = null
        try {
          journal = await RowsJournal.create(run.directory, {
            run: run.metadata,
            datasetOrder: plan.scenarioIds,
            resultsFile: run.resultsFile,
            trials: plan.settings.execution.trials,
          })
        } catch (error) {
          this.#log(`live-evals: ${reason(error)}; finished rows of this run are not journaled`)
        }
        const tests: FinishedScenarioTest[] = []
        const open: InterruptibleRun = {
          directory: run.directory,
          claim: run.claim,
          journal,
          runBlock: () => runMetadataOf(run, tests),
        }
        this.#runs.set(run.directory, { ...open, tests, unwatch: watchRunForInterrupt(open) })
      }
    }
  }

  /**
   * A collected test file's scenarios: each run's journal records those its first line does not list (spec files
   * that name their own scenarios), so a killed run counts them among its planned scenarios.
   */
  async plan(scenarios: readonly { runDirectory: string; scenarioId: string }[]): Promise<void> {
    await this.open()
    const idsByRun = new Map<string, string[]>()
    for (const { runDirectory, scenarioId } of scenarios) {
      const ids = idsByRun.get(runDirectory) ?? []
      ids.push(scenarioId)
      idsByRun.set(runDirectory, ids)
    }
    for (const [directory, ids] of idsByRun) {
      try {
        this.#runs.get(directory)?.journal?.plan(ids)
      } catch (error) {
        this.#log(`live-evals: ${reason(error)}`)
      }
    }
  }

  /** Appends a finished test's row to its run's journal (a test that did not run has none). */
  async record(testId: string, test: FinishedScenarioTest): Promise<void> {
    await this.open()
    const row = rowOfTest(test)
    const run = test.meta === undefined ? undefined : this.#runs.get(test.meta.runDirectory)
    if (row === null || run?.journal == null || this.#recorded.has(testId)) return
    this.#recorded.add(testId)
    try {
      run.journal.append(row)
      run.tests.push(test)
    } catch (error) {
      this.#log(`live-evals: ${reason(error)}`)
    }
  }

  /**
   * The run ended by itself and its results files are written: each journal gets its end line. A journal with no
   * row goes, so the folder of a run that finished nothing is released as unused.
   */
  finish(reasonOfEnd: Extract<JournalEndReason, 'passed' | 'failed'>): void {
    for (const run of this.#close()) this.#end(run, reasonOfEnd)
  }

  /**
   * One run ended by itself and its results file is written: its journal gets its end line now, before the
   * artifacts that read the journal (the HTML report, through the gate's loader) are written.
   */
  finishRun(directory: string, reasonOfEnd: Extract<JournalEndReason, 'passed' | 'failed'>): void {
    const run = this.#runs.get(directory)
    if (run === undefined) return
    run.unwatch()
    this.#runs.delete(directory)
    this.#end(run, reasonOfEnd)
  }

  #end(run: OpenRun, reasonOfEnd: Extract<JournalEndReason, 'passed' | 'failed'>): void {
    const { journal } = run
    if (journal === null) return
    try {
      if (journal.rows.length === 0) {
        journal.close()
        unlinkSync(journal.file)
        return
      }
      journal.end(reasonOfEnd)
      journal.close()
    } catch (error) {
      this.#log(`live-evals: ${reason(error)}`)
    }
  }

  /** Vitest ended the run as interrupted (Ctrl-C on a terminal): each run's results come from its journal. */
  interrupt(): SettledRun[] {
    return this.#close().map((run) => settleInterruptedRunSync(run))
  }

  #close(): OpenRun[] {
    const runs = [...this.#runs.values()]
    for (const run of runs) run.unwatch()
    this.#runs.clear()
    this.#recorded.clear()
    this.#opening = null
    return runs
  }
}

function reason(error: unknown): string {
  if (error instanceof ArtifactsError) return error.message
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
