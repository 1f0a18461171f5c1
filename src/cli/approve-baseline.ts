// `live-evals approve-baseline <results.json> <baseline.json>`: make one explicitly chosen results file the
// baseline the gate compares with. The source is validated like any gate input and must be a complete run, so a
// baseline is never "whatever ran last" nor a run that was cut short.

import { readFile } from 'node:fs/promises'
import { writeFileAtomically } from '../artifacts/atomic-file.ts'
import { GateInputError } from '../gate/errors.ts'
import { loadGateFile } from '../gate/load.ts'
import { type CommandIO, EXIT_USAGE, startCommand } from './command-start.ts'

const USAGE = `Usage: live-evals approve-baseline <results.json> <baseline.json>

Copies <results.json> to <baseline.json> (replacing it atomically) after checking that it is a valid, complete
results file. Commit the baseline or keep it as a CI artifact; pass it to live-evals gate --baseline.
`

function parseArguments(argv: readonly string[]): { source: string; destination: string } | string {
  const unknownOption = argv.find((argument) => argument.startsWith('-'))
  if (unknownOption !== undefined) return `unknown option ${unknownOption}`
  if (argv.length === 0) return 'name the results file to approve, <results.json>, and the baseline to write'
  if (argv.length === 1) return 'name the baseline to write, <baseline.json>, after the results file'
  if (argv.length > 2) {
    return `takes two files, <results.json> and <baseline.json> (got ${argv.length}: ${argv.join(' ')})`
  }
  const [source, destination] = argv as [string, string]
  return { source, destination }
}

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = startCommand(argv, io, { name: 'approve-baseline', usage: USAGE, parse: parseArguments })
  if (typeof args === 'number') return args
  const { source, destination } = args
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
