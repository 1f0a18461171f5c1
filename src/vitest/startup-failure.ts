// A live-evals run that cannot start (bad configuration, bad dataset, live mode without a key, no room for the
// run directory) is a user's problem to fix, not a crash: it is printed as plain text, every problem listed,
// and the process ends non-zero before any worker starts. Thrown from a Vitest global setup the same error
// would be shown as an "Unhandled Error" that "might cause false positive tests", with a stack into our code.
import { ArtifactsError } from '../artifacts/index.ts'
import { HarnessConfigError } from '../config/index.ts'
import { redactText } from '../config/outbound-redaction.ts'
import { DatasetValidationError } from '../scenarios/index.ts'
import { RunPlanProblem } from './run-plan.ts'

/**
 * Errors whose message is the whole story. Anything else (a bug) also gets its stack, so it can be fixed.
 */
function isUserProblem(error: unknown): error is Error {
  return (
    error instanceof HarnessConfigError ||
    error instanceof DatasetValidationError ||
    error instanceof RunPlanProblem ||
    // Results, run and attachments folder refusals: one sentence naming the path and the problem.
    error instanceof ArtifactsError ||
    (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string')
  )
}

/**
 * The text printed when a phase's run cannot start. It leaves the process, so it is redacted: a preflight's
 * refusal may quote what an upstream gateway echoed, the key included.
 */
export function startupFailureText(phase: string, error: unknown): string {
  const detail = isUserProblem(error)
    ? error.message
    : error instanceof Error
      ? (error.stack ?? error.message)
      : String(error)
  return redactText(
    [
      `live-evals: the ${phase.toUpperCase()} run cannot start; nothing was run and no run directory was created.`,
      detail,
      '',
    ].join('\n'),
  )
}

/** Prints the problem to stderr and ends the process with exit code 1. */
export function exitWithStartupFailure(phase: string, error: unknown): never {
  process.stderr.write(startupFailureText(phase, error))
  process.exit(1)
}
