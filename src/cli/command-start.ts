// The start every `live-evals` command shares: `--help` (or `-h`) prints its usage and exits 0; a command line its
// parser refuses is a usage error that names the command, says why and repeats the usage, with exit code 2. Also
// the command's IO seat and that exit code, here rather than in main.ts so a command need not import the entry
// point that loads it.

/** Where a command writes; verbs receive it so tests can read what a command printed. */
export interface CommandIO {
  out(text: string): void
  err(text: string): void
}

/** Exit code for a command line that cannot be understood (every verb uses it). */
export const EXIT_USAGE = 2

export interface CommandLine<Args> {
  /** The verb, as `live-evals <name>` spells it. */
  name: string
  usage: string
  /** The arguments, or why the command line cannot be understood. */
  parse: (argv: readonly string[]) => Args | string
}

/** Says why the command line is refused, with the usage; returns EXIT_USAGE. */
export function refuseUsage(
  io: CommandIO,
  command: Pick<CommandLine<unknown>, 'name' | 'usage'>,
  why: string,
) {
  io.err(`live-evals ${command.name}: ${why}\n\n${command.usage}`)
  return EXIT_USAGE
}

/** The parsed arguments; or the exit code when the command is already done (help printed, usage refused). */
export function startCommand<Args extends object>(
  argv: readonly string[],
  io: CommandIO,
  command: CommandLine<Args>,
): Args | number {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(command.usage)
    return 0
  }
  const parsed = command.parse(argv)
  return typeof parsed === 'string' ? refuseUsage(io, command, parsed) : parsed
}
