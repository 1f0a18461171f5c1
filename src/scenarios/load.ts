import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { duplicateScenarioIdProblems, SCHEMA_VERSION } from './dataset.ts'
import { isJsonObject } from './json-object.ts'
import { jsonSyntaxErrorOffset, positionOfOffset } from './json-syntax.ts'
import { RunGatedScenarioSchema } from './run-gate.ts'
import type { Recording, Scenario } from './scenario.ts'
import {
  DatasetValidationError,
  type DatasetViolation,
  formatJsonPath,
  problemsOfIssue,
} from './violations.ts'

// Reading a dataset: parse the JSON, validate every scenario (collecting all problems), then resolve
// recording paths against the dataset's folder. A dataset with any problem never yields scenarios.

export interface ResolvedRecording extends Recording {
  /** Absolute path: `path` resolved against the folder of the dataset file. */
  resolvedPath: string
}

/** A scenario as loaded from a file: its recordings also carry their resolved paths. */
export type LoadedScenario = Omit<Scenario, 'input'> & {
  input: Omit<Scenario['input'], 'recordings'> & { recordings: ResolvedRecording[] }
}

export interface LoadedDataset {
  /** The dataset file as given by the caller. */
  file: string
  schemaVersion: typeof SCHEMA_VERSION
  scenarios: LoadedScenario[]
}

export async function loadDataset(file: string): Promise<LoadedDataset> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new DatasetValidationError([
      { file, path: '', message: `cannot read the dataset file (${reason}); check the path` },
    ])
  }
  return parseDataset(text, file)
}

/** Validates dataset JSON held in memory; `file` names it in errors and anchors relative recording paths. */
export function parseDataset(text: string, file: string): LoadedDataset {
  const json = parseJson(text.replace(/^\uFEFF/, ''), file)
  const violations: DatasetViolation[] = []
  const scenarios = validateDocument(json, file, violations)
  if (violations.length > 0) throw new DatasetValidationError(violations)
  const folder = path.dirname(path.resolve(file))
  return {
    file,
    schemaVersion: SCHEMA_VERSION,
    scenarios: scenarios.map((scenario) => withResolvedRecordings(scenario, folder)),
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const offset = jsonSyntaxErrorOffset(text) ?? text.length
    const { line, column } = positionOfOffset(text, offset)
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')
    throw new DatasetValidationError([
      {
        file,
        path: '',
        message: `malformed JSON at line ${line}, column ${column} (offset ${offset}): ${reason}`,
      },
    ])
  }
}

function validateDocument(document: unknown, file: string, violations: DatasetViolation[]): Scenario[] {
  if (!isJsonObject(document)) {
    violations.push({
      file,
      path: '',
      message: 'a dataset must be a JSON object {"schema_version": "1.0", "scenarios": [...]}',
    })
    return []
  }
  for (const key of Object.keys(document)) {
    if (key !== 'schema_version' && key !== 'scenarios') {
      violations.push({
        file,
        path: formatJsonPath([key]),
        message: `unknown top-level field "${key}": a dataset holds only schema_version and scenarios`,
      })
    }
  }
  if (document.schema_version !== SCHEMA_VERSION) {
    const got =
      document.schema_version === undefined
        ? 'it is missing'
        : `got ${JSON.stringify(document.schema_version)}`
    violations.push({
      file,
      path: 'schema_version',
      message: `schema_version must be "${SCHEMA_VERSION}" (${got})`,
    })
  }
  if (!Array.isArray(document.scenarios)) {
    violations.push({ file, path: 'scenarios', message: 'scenarios must be a list of scenario objects' })
    return []
  }
  const rawScenarios: unknown[] = document.scenarios
  const rawIds = rawScenarios.map((raw) => (isJsonObject(raw) ? raw.id : undefined))
  const scenarioIdAt = (index: number) => {
    const id = rawIds[index]
    return typeof id === 'string' ? { scenarioId: id } : {}
  }
  const add = (index: number, problemPath: readonly PropertyKey[], message: string) =>
    violations.push({ file, ...scenarioIdAt(index), path: formatJsonPath(problemPath), message })

  const scenarios: Scenario[] = []
  rawScenarios.forEach((raw, index) => {
    const result = RunGatedScenarioSchema.safeParse(raw, { reportInput: true })
    if (result.success) {
      scenarios.push(result.data)
      return
    }
    for (const issue of result.error.issues) {
      for (const problem of problemsOfIssue(issue))
        add(index, ['scenarios', index, ...problem.path], problem.message)
    }
  })
  for (const problem of duplicateScenarioIdProblems(rawIds))
    add(problem.path[1] as number, problem.path, problem.message)
  return scenarios
}

function withResolvedRecordings(scenario: Scenario, folder: string): LoadedScenario {
  return {
    ...scenario,
    input: {
      ...scenario.input,
      recordings: scenario.input.recordings.map((recording) => ({
        ...recording,
        resolvedPath: path.resolve(folder, recording.path),
      })),
    },
  }
}
