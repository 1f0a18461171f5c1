import { resolve } from 'node:path'
import { ArtifactsError } from '../artifacts/errors.ts'
import { journalFilesIn, rebuildResultsFile } from '../artifacts/rows-journal-read.ts'
import { removeStrayTemporaries } from '../artifacts/stray-temporaries.ts'
import { markedPartiality } from '../gate/load.ts'
import { plannedText } from '../reporting/extensions/completion.ts'
import { type CommandIO, startCommand } from './command-start.ts'

// `live-evals results <run-dir>`: rebuilds a run folder's results.json from its rows journal, for a run that was
// killed (SIGKILL, a power cut, a crashed machine) before it could write it. Everything needed comes from the
// journal: its first line holds the run metadata and the dataset order, each later line a finished row. A sharded
// run folder holds one journal per shard, and each rebuilds that shard's own results file.

const USAGE = `Usage: live-evals results <run-dir>

Rebuilds results.json in <run-dir> from the rows journal the run wrote as scenarios finished (rows.jsonl; a
shard's rows.shard-<i>-of-<n>.jsonl rebuilds its results.shard-<i>-of-<n>.json). Use it after a run was killed
before it could write its results. Rows are those of the scenarios that finished; a last row cut short by the
kill is left out. The journal is then ended, so later runs stop reporting the run as unfinished; a complete
results file the run wrote itself is kept as it is. Temporary files of writers that were killed mid-write are removed. Exits 1 if the folder has
no journal or a journal is damaged.
`

function parseArguments(argv: readonly string[]): { runDirectory: string } | string {
  const unknownOption = argv.find((argument) => argument.startsWith('-'))
  if (unknownOption !== undefined) return `unknown option ${unknownOption}`
  if (argv.length !== 1) {
    return `name exactly one run folder, <run-dir> (got ${argv.length === 0 ? 'none' : argv.length})`
  }
  return { runDirectory: argv[0] as string }
}

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = startCommand(argv, io, { name: 'results', usage: USAGE, parse: parseArguments })
  if (typeof args === 'number') return args
  const runDir = resolve(args.runDirectory)
  const journals = journalFilesIn(runDir)
  if (journals.length === 0) {
    io.err(
      `live-evals results: ${runDir} has no rows journal (rows.jsonl); only runs that recorded their rows as they finished can be rebuilt.\n`,
    )
    return 1
  }
  let failed = 0
  for (const journalFile of journals) {
    try {
      const { path, document, completion, kept } = await rebuildResultsFile(runDir, journalFile)
      const { total, passed, failed: failedRows, infrastructure_errors: infrastructure } = document.summary
      const rows = `${total} row${total === 1 ? '' : 's'}`
      // The gate's and the report's words for the document's markers: interrupted, spec files lost, filtered.
      const partial = markedPartiality(document.run)
      const marked = partial === null ? '' : `, marked partial: ${partial}`
      if (kept === 'run_ended') {
        io.out(
          `kept ${path}: the run ${completion.complete ? 'had ended' : 'was interrupted'} and wrote it itself (${rows}${marked}); not rebuilt from its journal.\n`,
        )
        continue
      }
      if (kept === 'written_before_stop') {
        io.out(
          `kept ${path}: the run wrote its ${partial === null ? 'complete ' : ''}results (${rows}${marked}) before it was stopped; its journal is now ended.\n`,
        )
        continue
      }
      const ending = {
        passed: 'the run had ended',
        failed: 'the run had ended',
        interrupted: 'the run was interrupted: these are partial results',
        killed: 'the run never ended (killed, or still running): these are partial results',
      }[completion.ending]
      const { plannedScenarios, trialsPerScenario: k } = completion
      const planned = plannedText({
        planned_scenarios: plannedScenarios,
        ...(k > 1 ? { planned_trials: plannedScenarios * k } : {}),
      })
      io.out(
        `rebuilt ${path}: ${total} row${total === 1 ? '' : 's'} (${passed} passed, ${failedRows} failed, ` +
          `${infrastructure} infrastructure error${infrastructure === 1 ? '' : 's'}) of ${planned}; ${ending}.\n`,
      )
    } catch (error) {
      failed++
      io.err(`live-evals results: ${plainReason(error)}\n`)
    }
  }
  // A writer killed mid-write left its temporary file beside the intact artifact; nothing reads it.
  const removed = removeStrayTemporaries(runDir)
  if (removed.length > 0) {
    io.out(
      `removed ${removed.length} temporary file${removed.length === 1 ? '' : 's'} left by writers that were killed mid-write.\n`,
    )
  }
  return failed > 0 ? 1 : 0
}

/** One plain line: the refusals say what and where; anything else is named by its class, never a stack. */
function plainReason(error: unknown): string {
  if (error instanceof ArtifactsError) return error.message
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.replace(/\s+/g, ' ')
}
