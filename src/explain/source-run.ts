// What `explain` reads of a finished run: its results.json, the failed scenarios (one entry per scenario, however
// many of its trials failed), each one's scenario snapshot and the details of its first failed row. Every problem
// is an ExplainInputError naming the folder, file or scenario, and what to do.
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { artifactPathProblem } from '../artifacts/destinations.ts'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import type { Architecture } from '../assistants/frontend/index.ts'
import type { Phase } from '../config/index.ts'
import { MAX_RESULTS_FILE_BYTES } from '../gate/load.ts'
import { InputFileError, readInputFile } from '../inputs/read-input-file.ts'
import { readScenarioSnapshot } from '../phases/engine/scenario-snapshot.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import { type ResultItem, type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import type { NOT_EXPLAINED_REASONS } from './schema.ts'

export class ExplainInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExplainInputError'
  }
}

export interface SourceRun {
  /** The run folder, absolute. */
  directory: string
  document: ResultsDocument
  module: Phase
  architecture: Architecture
  /** How its rows were produced: offline, live, or replayed from cassettes. */
  mode: 'offline' | 'live' | 'replay'
}

/** A failed scenario of the run, ready to be re-run. */
export interface FailedScenario {
  scenarioId: string
  title: string | null
  /** Every row of the scenario (one per trial). */
  rows: ResultItem[]
  failedTrials: number[]
  /** The first failed row: its details and checks describe the failure being explained. */
  failedRow: ResultItem
  scenario: LoadedScenario
  /** The failed row's details JSON as written (phase-specific; see row-facts.ts). */
  details: Record<string, unknown>
}

export interface SkippedScenario {
  scenarioId: string
  reason: (typeof NOT_EXPLAINED_REASONS)[number]
  message: string
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads and checks the run folder; the error says what is missing and what to do. */
export async function readSourceRun(runDirectory: string): Promise<SourceRun> {
  const directory = resolve(runDirectory)
  try {
    if (!(await stat(directory)).isDirectory()) throw new ExplainInputError(`${directory} is not a folder`)
  } catch (error) {
    if (error instanceof ExplainInputError) throw error
    throw new ExplainInputError(`no run folder at ${directory} (${(error as NodeJS.ErrnoException).code})`)
  }
  const file = join(directory, RESULTS_FILE)
  let value: unknown
  try {
    value = await readJsonFile(file, MAX_RESULTS_FILE_BYTES)
  } catch (error) {
    const refusal = error instanceof InputFileError ? error.refusal : null
    if (refusal?.kind === 'unreadable') {
      throw new ExplainInputError(
        `${file} cannot be read (${refusal.code}): not a finished run folder; ` +
          'if the run was killed, rebuild it first with `live-evals results`',
      )
    }
    throw new ExplainInputError((error as Error).message)
  }
  const parsed = ResultsDocumentSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ExplainInputError(
      `${file}: not a results document (${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message})`,
    )
  }
  const document = parsed.data
  const architecture = document.run.configuration.assistant_mode
  if (architecture !== 'responses' && architecture !== 'client') {
    throw new ExplainInputError(`${file}: run.configuration.assistant_mode names no architecture`)
  }
  const replayed = document.results.some(
    (row) =>
      (row.observability?.provenance as { execution_mode?: unknown } | undefined)?.execution_mode ===
      'replay',
  )
  return {
    directory,
    document,
    module: document.run.module,
    architecture,
    mode: replayed ? 'replay' : document.run.execution_mode === 'live' ? 'live' : 'offline',
  }
}

/** Ids of the required checks a row failed, the extension's own checks (no_unexpected_side_effects, ...) included. */
export function failedChecksOf(row: ResultItem): string[] {
  const reference = (row.assessment?.checks ?? []).filter(
    (check) => check.required && check.status === 'failed',
  )
  const ours = (row.observability?.[EXTENSION_KEY]?.checks ?? []).filter(
    (check) => check.required && check.status === 'failed',
  )
  return [...reference, ...ours].map((check) => check.id)
}

/** The deterministic grading dimensions a single-turn row failed (RUN rows grade by checks only: none). */
export function failedDimensionsOf(row: ResultItem): string[] {
  const grading = row.observability?.grading
  const deterministic = isObject(grading) && isObject(grading.deterministic) ? grading.deterministic : {}
  return Object.entries(deterministic)
    .filter(([, status]) => status === 'failed')
    .map(([dimension]) => dimension)
}

/** The checks only the semantic judge decides: a failure on these alone is not re-run (re-runs are not judged). */
const JUDGE_CHECKS = new Set(['semantic_outcome', 'semantic_requirements', 'assertion:toSatisfyRubric'])

/** A run's own details files are far smaller (the report reads them under the same cap). */
const MAX_DETAILS_BYTES = 64 * 1024 * 1024

/** A JSON file read under a size cap (a FIFO or a device is refused, not waited on); the errors name the file. */
async function readJsonFile(file: string, maxBytes: number): Promise<unknown> {
  const bytes = await readInputFile(file, maxBytes)
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'))
  } catch (error) {
    throw new Error(`${file} is not JSON (${(error as Error).message})`)
  }
}

async function readDetails(directory: string, row: ResultItem): Promise<Record<string, unknown>> {
  if (row.artifacts.details === null) throw new Error('the row names no details file')
  const problem = artifactPathProblem(row.artifacts.details)
  if (problem !== null) throw new Error(`the row's details path ${row.artifacts.details}: ${problem}`)
  const file = join(directory, row.artifacts.details)
  const value = await readJsonFile(file, MAX_DETAILS_BYTES)
  if (!isObject(value)) throw new Error(`${file} is not a details object`)
  return value
}

/**
 * The run's failed scenarios (or only `only`), in the run's order, and the failed ones that cannot be explained
 * with why. Throws when there is nothing to explain or `only` names no scenario of the run.
 */
export async function failedScenarios(
  run: SourceRun,
  only: string | null,
): Promise<{ failed: FailedScenario[]; skipped: SkippedScenario[] }> {
  const byScenario = new Map<string, ResultItem[]>()
  for (const row of run.document.results) {
    byScenario.set(row.scenario_id, [...(byScenario.get(row.scenario_id) ?? []), row])
  }
  const file = join(run.directory, RESULTS_FILE)
  if (only !== null) {
    const rows = byScenario.get(only)
    if (rows === undefined) {
      const known = [...byScenario.keys()]
      throw new ExplainInputError(
        `--scenario ${only}: no such scenario in ${file} (its scenarios: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''})`,
      )
    }
    if (!rows.some((row) => row.status !== 'passed')) {
      throw new ExplainInputError(`--scenario ${only} passed in ${file}: there is no failure to explain`)
    }
  }
  const failed: FailedScenario[] = []
  const skipped: SkippedScenario[] = []
  for (const [scenarioId, rows] of byScenario) {
    if (only !== null && scenarioId !== only) continue
    const failedRows = rows.filter((row) => row.status === 'failed')
    const errored = rows.find((row) => row.status === 'infrastructure_error')
    if (failedRows.length === 0) {
      if (errored !== undefined) {
        skipped.push({
          scenarioId,
          reason: 'infrastructure_error',
          message: `an infrastructure error at stage ${errored.error?.stage ?? 'unknown'} has no verdict to explain; fix it and run again`,
        })
      }
      continue
    }
    const failedRow = failedRows[0] as ResultItem
    const checks = failedChecksOf(failedRow)
    if (checks.length > 0 && checks.every((check) => JUDGE_CHECKS.has(check))) {
      skipped.push({
        scenarioId,
        reason: 'judge_only',
        message: `failed only on the semantic judge's verdict (${checks.join(', ')}); explain re-runs are graded by the deterministic checks`,
      })
      continue
    }
    try {
      failed.push({
        scenarioId,
        title: failedRow.title ?? null,
        rows,
        failedTrials: failedRows.map((row) => rowKeyOf(row).trial),
        failedRow,
        scenario: await readScenarioSnapshot(run.directory, scenarioId),
        details: await readDetails(run.directory, failedRow),
      })
    } catch (error) {
      skipped.push({ scenarioId, reason: 'unreadable', message: (error as Error).message })
    }
  }
  if (failed.length === 0 && skipped.length === 0) {
    throw new ExplainInputError(
      `${file} has no failed rows (${run.document.summary.passed} passed of ${run.document.summary.total}): there is nothing to explain`,
    )
  }
  return { failed, skipped }
}
