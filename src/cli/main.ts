// Entry point of the `live-evals` command: dispatches to one verb module per subcommand.
export async function main(argv: readonly string[]): Promise<number> {
  const [verb] = argv
  process.stderr.write(`live-evals: unknown command ${verb ?? '(none)'}\n`)
  return 2
}
