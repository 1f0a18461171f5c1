// Reading the interventions sidecar named by the RUN setting `simulation.interventions_file` (null: none).
// A broken file stops the run before anything is executed, with every problem listed on its own line naming
// the file and the field (a HarnessConfigError, which the startup path prints as the user's problem to fix),
// including a scenario id the dataset does not hold: a schedule for a misspelled id would otherwise never run.
import { HarnessConfigError } from '../../../config/errors.ts'
import { isJsonObject } from '../../../scenarios/json-object.ts'
import { jsonSyntaxErrorOffset, positionOfOffset } from '../../../scenarios/json-syntax.ts'
import { quoteText } from '../../../scenarios/quote.ts'
import { InputFileError, readInputFile } from '../../../scenarios/read-input-file.ts'
import { invalidUtf8Offset } from '../../../scenarios/utf8.ts'
import { describeValue, formatJsonPath, problemsOfIssue } from '../../../scenarios/violations.ts'
import { INTERVENTIONS_SCHEMA_VERSION, type Intervention, ScenarioInterventionsSchema } from './schema.ts'

/** A schedule is a few hundred bytes per scenario; a megabyte is far beyond any real one. */
export const MAX_INTERVENTIONS_FILE_BYTES = 1024 * 1024
/** After this many problems the file is clearly not a schedule; the first ones say what is wrong. */
const MAX_PROBLEMS = 50

/** Interventions by scenario id; a scenario without an entry has none. */
export type InterventionSchedule = ReadonlyMap<string, readonly Intervention[]>

export const NO_INTERVENTIONS: InterventionSchedule = new Map()

/** The interventions scheduled for one scenario, in the file's order ([] when none). */
export function interventionsFor(
  schedule: InterventionSchedule,
  scenarioId: string,
): readonly Intervention[] {
  return schedule.get(scenarioId) ?? []
}

/**
 * The schedule in `file` (null: no file, no interventions), checked against the ids of the run's dataset.
 * Throws HarnessConfigError naming the file and each broken field.
 */
export async function loadInterventions(
  file: string | null,
  datasetIds: Iterable<string> | null,
): Promise<InterventionSchedule> {
  if (file === null) return NO_INTERVENTIONS
  return parseInterventionsBytes(await readInterventionsFile(file), file, datasetIds)
}

async function readInterventionsFile(file: string): Promise<Uint8Array> {
  try {
    return await readInputFile(file, MAX_INTERVENTIONS_FILE_BYTES)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    const refusal = error.refusal
    const reason =
      refusal.kind === 'not_a_file'
        ? 'is not a regular file (a folder, a device or a pipe)'
        : refusal.kind === 'too_large'
          ? tooLarge(refusal.bytes)
          : `cannot be read (${refusal.code}); check simulation.interventions_file (LIVE_EVALS_INTERVENTIONS) or remove it`
    throw new HarnessConfigError([`Interventions file ${file}: ${reason}`])
  }
}

function tooLarge(bytes: number): string {
  return `is ${bytes} bytes; an interventions file may be at most ${MAX_INTERVENTIONS_FILE_BYTES} bytes (1 MiB)`
}

export function parseInterventionsBytes(
  bytes: Uint8Array,
  file: string,
  datasetIds: Iterable<string> | null,
): InterventionSchedule {
  const refuse = (reason: string) => new HarnessConfigError([`Interventions file ${file}: ${reason}`])
  if (bytes.length > MAX_INTERVENTIONS_FILE_BYTES) throw refuse(tooLarge(bytes.length))
  const invalidAt = invalidUtf8Offset(bytes)
  if (invalidAt !== null) throw refuse(`invalid UTF-8 at byte offset ${invalidAt}: save the file as UTF-8`)
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
  return parseInterventions(text, file, datasetIds)
}

/** Validates a schedule held in memory; `file` names it in errors. */
export function parseInterventions(
  text: string,
  file: string,
  datasetIds: Iterable<string> | null,
): InterventionSchedule {
  const json = parseJson(text.replace(/^\uFEFF/, ''), file)
  const problems: string[] = []
  const report = (path: readonly PropertyKey[], message: string) => {
    if (problems.length < MAX_PROBLEMS) {
      problems.push(`Interventions file ${file}: ${formatJsonPath(path) || '(file)'}: ${message}`)
    }
  }
  const schedule = new Map<string, readonly Intervention[]>()
  if (!isJsonObject(json)) {
    report([], `must be a JSON object with "schema_version" and "interventions", got ${describeValue(json)}`)
    throw new HarnessConfigError(problems)
  }
  for (const key of Object.keys(json)) {
    if (key !== 'schema_version' && key !== 'interventions')
      report([key], `unknown field ${quoteText(key)} (the file holds "schema_version" and "interventions")`)
  }
  if (json.schema_version !== INTERVENTIONS_SCHEMA_VERSION) {
    report(
      ['schema_version'],
      json.schema_version === undefined
        ? `missing required field (must be "${INTERVENTIONS_SCHEMA_VERSION}")`
        : `must be "${INTERVENTIONS_SCHEMA_VERSION}", got ${describeValue(json.schema_version)}`,
    )
  }
  const byScenario = json.interventions
  if (!isJsonObject(byScenario)) {
    report(
      ['interventions'],
      byScenario === undefined
        ? 'missing required field (an object of intervention lists keyed by scenario id)'
        : `must be an object of intervention lists keyed by scenario id, got ${describeValue(byScenario)}`,
    )
    throw new HarnessConfigError(problems)
  }
  // null: the ids were checked when the run was planned (against every scenario, not one shard's).
  const known = datasetIds === null ? null : new Set(datasetIds)
  // Own keys as JSON.parse made them (a "__proto__" scenario id stays an ordinary key, never a prototype).
  for (const [scenarioId, value] of Object.entries(byScenario)) {
    const at = ['interventions', scenarioId]
    if (known !== null && !known.has(scenarioId)) {
      report(
        at,
        `scenario ${quoteText(scenarioId)} is not in the dataset (check the id, or remove its entry)`,
      )
      continue
    }
    const parsed = ScenarioInterventionsSchema.safeParse(value, { reportInput: true })
    if (parsed.success) {
      schedule.set(scenarioId, parsed.data)
      continue
    }
    for (const issue of parsed.error.issues) {
      for (const problem of problemsOfIssue(issue)) report([...at, ...problem.path], problem.message)
    }
  }
  if (problems.length > 0) throw new HarnessConfigError(problems)
  return schedule
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const offset = jsonSyntaxErrorOffset(text) ?? text.length
    const { line, column } = positionOfOffset(text, offset)
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 200)
    throw new HarnessConfigError([
      `Interventions file ${file}: malformed JSON at line ${line}, column ${column}: ${reason}`,
    ])
  }
}
