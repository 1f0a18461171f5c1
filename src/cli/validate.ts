import { PHASES } from '../config/schema.ts'
import { shellWord } from '../reporting/shell-word.ts'
import { type LoadedDataset, loadDataset } from '../scenarios/load.ts'
import { placeholderExpectationViolations } from '../scenarios/placeholder-expectation.ts'
import { checkRecordingFiles } from '../scenarios/recording-files.ts'
import { phaseAccepts } from '../scenarios/select.ts'
import { DatasetValidationError, describeViolations } from '../scenarios/violations.ts'
import { type CommandIO, startCommand } from './command-start.ts'

// `live-evals validate <dataset.json>...`: checks every file (not only up to the first bad one), prints
// the scenarios each phase would run, and lists every violation of every file. Whatever happens while
// checking one file is reported as that file's failure, in one plain paragraph (never a stack trace),
// and the next file is still checked.

const USAGE = `Usage: live-evals validate <dataset.json>...

Checks each dataset against the scenario contract (schema_version "1.0") and the RUN gate, and prints how
many scenarios the crawl, walk and run phases would select. A scenario whose expected.answer is still the
placeholder live-evals import-call wrote is a problem too (a run fails it until the answer is written), and so is a
WALK recording that exists but is not mono 16-bit PCM at 24000 Hz. A recording not made yet is not a problem
(live-evals walk generate-audio makes the missing ones); the file's line says how many and the command.
Exits 1 if any file has a problem.
`

function parseArguments(argv: readonly string[]): { files: readonly string[] } | string {
  const unknownOption = argv.find((argument) => argument.startsWith('-'))
  if (unknownOption !== undefined) return `unknown option ${unknownOption}`
  if (argv.length === 0) return 'name at least one dataset file, <dataset.json>'
  return { files: argv }
}

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = startCommand(argv, io, { name: 'validate', usage: USAGE, parse: parseArguments })
  if (typeof args === 'number') return args
  const { files } = args
  let failedFiles = 0
  for (const file of files) {
    try {
      const dataset = await loadDataset(file)
      const recordings = await checkRecordingFiles(dataset)
      const problems = [
        ...recordings.violations,
        // Valid JSON, but a scenario that can never pass: an imported call whose answer was not written yet.
        ...placeholderExpectationViolations(dataset),
      ]
      if (problems.length > 0) throw new DatasetValidationError(problems)
      io.out(`ok   ${file}: ${phaseCounts(dataset)}${notMadeYet(file, recordings.missing.length)}\n`)
    } catch (error) {
      failedFiles++
      io.err(`FAIL ${failureText(file, error)}\n`)
    }
  }
  if (failedFiles > 0) {
    io.err(
      `${failedFiles} of ${files.length} dataset file${files.length === 1 ? '' : 's'} failed validation.\n`,
    )
    return 1
  }
  return 0
}

function phaseCounts(dataset: LoadedDataset): string {
  const counts = PHASES.map(
    (phase) => `${phase} ${dataset.scenarios.filter((scenario) => phaseAccepts(phase, scenario)).length}`,
  )
  const total = dataset.scenarios.length
  return `${total} scenario${total === 1 ? '' : 's'} (${counts.join(', ')})`
}

/**
 * A WALK recording that does not exist is not a problem (generate-audio fills missing recordings by design), but an
 * `ok` alone would read as "ready to run": the line says how many are missing and the command that makes them.
 */
function notMadeYet(file: string, missing: number): string {
  if (missing === 0) return ''
  const recordings = `${missing} recording${missing === 1 ? '' : 's'}`
  return `; ${recordings} not made yet: run live-evals walk generate-audio ${shellWord(file)}`
}

function failureText(file: string, error: unknown): string {
  if (error instanceof DatasetValidationError) return describeViolations(error.violations)
  // Not a dataset problem the loader knows how to name: still this file's failure, said plainly.
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return `${file}: could not be checked (${reason.replace(/\s+/g, ' ').slice(0, 300)})`
}
