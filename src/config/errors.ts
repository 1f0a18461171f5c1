// One error type for every configuration problem, carrying each problem as its own line so a person
// sees all of them at once instead of fixing one per run.
export class HarnessConfigError extends Error {
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    const message =
      problems.length === 1
        ? (problems[0] ?? '')
        : `${problems.length} configuration problems:\n- ${problems.join('\n- ')}`
    super(message)
    this.name = 'HarnessConfigError'
    this.problems = problems
  }
}
