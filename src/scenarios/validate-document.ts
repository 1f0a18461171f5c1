import { duplicateScenarioIdProblems, SCHEMA_VERSION } from './dataset.ts'
import { isJsonObject } from './json-object.ts'
import {
  exceedsFieldCount,
  MAX_JSON_DEPTH,
  MAX_SCENARIO_FIELDS,
  pathBeyondDepth,
  TOO_DEEP_MESSAGE,
  TOO_MANY_FIELDS_MESSAGE,
} from './limits.ts'
import { quoteText } from './quote.ts'
import { RunGatedScenarioSchema } from './run-gate.ts'
import type { Scenario } from './scenario.ts'
import { type DatasetViolation, describeValue, formatJsonPath, problemsOfIssue } from './violations.ts'

// Validating a parsed dataset document: the wrapper, then each scenario on its own (so one broken scenario
// hides none of the others' problems), then the rules across scenarios. What is reported is bounded: a
// file of a million broken scenarios lists the first MAX_REPORTED_VIOLATIONS problems and says there are
// more, instead of building gigabytes of messages.

/** Problems listed per dataset file; a real dataset with this many has one systematic mistake. */
export const MAX_REPORTED_VIOLATIONS = 1000
/** Messages are ours but quote author text; this bounds them whatever a rule put in. */
const MAX_MESSAGE_CHARACTERS = 500
/** The nesting of a scenario object: dataset (1) > scenarios list (2) > scenario (3). */
const SCENARIO_DEPTH = 3

class ViolationList {
  readonly #file: string
  readonly #violations: DatasetViolation[] = []
  #omitted = false

  constructor(file: string) {
    this.#file = file
  }

  /** True once the list is full; from then on, whatever is still unchecked counts as unlisted problems. */
  stopsHere(): boolean {
    if (this.#violations.length < MAX_REPORTED_VIOLATIONS) return false
    this.#omitted = true
    return true
  }

  add(path: readonly PropertyKey[], message: string, scenarioId?: unknown): void {
    if (this.stopsHere()) return
    this.#violations.push({
      file: this.#file,
      ...(typeof scenarioId === 'string' ? { scenarioId } : {}),
      path: formatJsonPath(path),
      message:
        message.length > MAX_MESSAGE_CHARACTERS ? `${message.slice(0, MAX_MESSAGE_CHARACTERS)}...` : message,
    })
  }

  finish(): DatasetViolation[] {
    if (!this.#omitted) return this.#violations
    const more = `more problems were found and not listed (at most ${MAX_REPORTED_VIOLATIONS} are); fix these and validate again`
    return [...this.#violations, { file: this.#file, path: '', message: more }]
  }
}

export function validateDocument(
  document: unknown,
  file: string,
): { scenarios: Scenario[]; violations: DatasetViolation[] } {
  const violations = new ViolationList(file)
  const scenarios = validateWrapperAndScenarios(document, violations)
  return { scenarios, violations: violations.finish() }
}

function validateWrapperAndScenarios(document: unknown, violations: ViolationList): Scenario[] {
  if (!isJsonObject(document)) {
    violations.add([], 'a dataset must be a JSON object {"schema_version": "1.0", "scenarios": [...]}')
    return []
  }
  for (const key of Object.keys(document)) {
    if (key !== 'schema_version' && key !== 'scenarios') {
      violations.add(
        [key],
        `unknown top-level field ${quoteText(key)}: a dataset holds only schema_version and scenarios`,
      )
    }
  }
  if (document.schema_version !== SCHEMA_VERSION) {
    const version = document.schema_version
    const got = version === undefined ? 'it is missing' : `got ${describeValue(version)}`
    violations.add(['schema_version'], `schema_version must be "${SCHEMA_VERSION}" (${got})`)
  }
  if (!Array.isArray(document.scenarios)) {
    violations.add(['scenarios'], 'scenarios must be a list of scenario objects')
    return []
  }
  const rawScenarios: unknown[] = document.scenarios
  const rawIds = rawScenarios.map((raw) => (isJsonObject(raw) ? raw.id : undefined))
  const scenarios: Scenario[] = []
  for (const [index, raw] of rawScenarios.entries()) {
    if (violations.stopsHere()) break
    const add = (path: readonly PropertyKey[], message: string) =>
      violations.add(['scenarios', index, ...path], message, rawIds[index])
    // Too large or too deep to hand to later stages: that is this scenario's one problem, its fields are not read.
    if (exceedsFieldCount(raw, MAX_SCENARIO_FIELDS)) {
      add([], TOO_MANY_FIELDS_MESSAGE)
      continue
    }
    const tooDeep = pathBeyondDepth(raw, SCENARIO_DEPTH, MAX_JSON_DEPTH)
    if (tooDeep !== null) {
      add(tooDeep, TOO_DEEP_MESSAGE)
      continue
    }
    const result = RunGatedScenarioSchema.safeParse(raw, { reportInput: true })
    if (result.success) {
      scenarios.push(result.data)
      continue
    }
    for (const issue of result.error.issues) {
      for (const problem of problemsOfIssue(issue)) add(problem.path, problem.message)
    }
  }
  for (const problem of duplicateScenarioIdProblems(rawIds))
    violations.add(problem.path, problem.message, rawIds[problem.path[1] as number])
  return scenarios
}
