// The error a scenario's test fails with when its execution could not start (the caller's audio could not be
// prepared, the run was stopped): the message alone, one block in Vitest's output. The message already names
// what failed, where and what to change; the causes under it (our wrappers, an SDK error with its serialized
// Headers) and the stack frames inside live-evals would only repeat it two or three times in longer form.
export class ScenarioFailure extends Error {
  constructor(message: string) {
    super(message)
    // No frames: where inside live-evals it was thrown is nothing a user can act on.
    this.stack = `${this.name}: ${message}`
  }
}
// On the prototype, so Vitest does not list it among the error's own fields.
ScenarioFailure.prototype.name = 'ScenarioFailure'

/** The failure a test shows for `error`: the same message, without causes or frames. */
export function scenarioFailureOf(error: unknown): ScenarioFailure {
  return new ScenarioFailure(error instanceof Error ? error.message : String(error))
}
