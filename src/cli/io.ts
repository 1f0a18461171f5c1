// Where a command writes. Verbs take it as a parameter so tests can read what a command printed.

export interface CommandIO {
  out(text: string): void
  err(text: string): void
}

export const processIO: CommandIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}

/** A verb of the `live-evals` command: receives the arguments after the verb, resolves to the exit code. */
export type Verb = (argv: readonly string[], io?: CommandIO) => Promise<number>
