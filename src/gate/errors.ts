// The gate's one error: input it cannot judge (an unreadable or partial results file, a bad option). The command
// maps it to exit 2; a threshold that fails is not an error but a verdict.

export class GateInputError extends Error {
  /** The file or option at fault. */
  readonly source: string
  constructor(source: string, message: string) {
    super(`${source}: ${message}`)
    this.name = 'GateInputError'
    this.source = source
  }
}
