// `live-evals approve-baseline <results.json> <baseline.json>`: make one explicitly chosen results file the
// baseline the gate compares with. The source is validated like any gate input and must be a complete run, so a
// baseline is never "whatever ran last" nor a run that was cut short.

import { readFile } from 'node:fs/promises'
import { writeFileAtomically } from '../artifacts/atomic-file.ts'
import { GateInputError } from '../gate/errors.ts'
import { loadGateFile } from '../gate/load.ts'
import { type CommandIO, EXIT_USAGE } from './command-start.ts'

const USAGE = `Usage: live-evals approve-baseline <results.json> <baseline.json>

Copies <results.json> to <baseline.json> (replacing it atomically) after checking that it is a valid, complete
results file. Commit the baseline or keep it as a CI artifact; pass it to live-evals gate --baseline.
`

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE)
    return 0
  }
  const unknownOption = argv.find((argument) => argument.startsWith('-'))
  if (unknownOption !== undefined || argv.length !== 2) {
    io.err(
      `live-evals approve-baseline: ${unknownOption === undefined ? 'name the results file and the baseline to write' : `unknown option ${unknownOption}`}.\n\n${USAGE}`,
    )
    return EXIT_USAGE
  }
  const [source, destination] = argv as [string, string]
  try {
    const file = await loadGateFile(source)
    if (file.partial !== null) {
      throw new GateInputError(source, `holds partial results (${file.partial}); approve a run that ended`)
    }
    // Replaced atomically: a reader of the baseline (a CI job) sees the old file or the new one, never a cut one.
    const bytes = await readFile(source)
    try {
      await writeFileAtomically(destination, bytes)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      throw new GateInputError(destination, `cannot be written (${code}); check that its folder exists`)
    }
    const { summary, run } = file.document
    io.out(
      `approved ${source} as the baseline ${destination}: run ${run.id}, ${summary.total} rows ` +
        `(${summary.passed} passed, ${summary.failed} failed, ${summary.infrastructure_errors} infrastructure errors).\n`,
    )
    return 0
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    io.err(`live-evals approve-baseline: ${reason}\n`)
    return EXIT_USAGE
  }
}
