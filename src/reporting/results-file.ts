// Reading a results.json (ours or the reference toolkit's): JSON, schema "2.0", every field validated, summary
// consistent with the rows, each (scenario id, trial) once. A file that fails any of these is refused with an error
// naming the file and the JSON path; it is never half-read.

import { DuplicateResultRowError, ResultsFileError } from './errors.ts'
import { EXTENSION_KEY } from './extensions/registry.ts'
import { normalizeReferenceResults } from './historical-normalization.ts'
import { RESULTS_SCHEMA_VERSION, type ResultsDocument, ResultsDocumentSchema } from './result-schema.ts'
import { assertUniqueRowKeys } from './row-key.ts'
import { summarizeResults } from './summary.ts'

const MAX_LISTED_ISSUES = 10

export interface ParseResultsOptions {
  /** Where the document came from (its path), named in every error. */
  source: string
}

function jsonPath(path: readonly PropertyKey[]): string {
  const text = path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('')
    .replace(/^\./, '')
  return text === '' ? '(document)' : text
}

function parseJsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ResultsFileError(source, `is not JSON (${(error as Error).message})`)
  }
}

/**
 * @param input the file's text, or its already parsed JSON value
 * @throws ResultsFileError naming `options.source` and the offending JSON path
 */
export function parseResultsDocument(input: unknown, options: ParseResultsOptions): ResultsDocument {
  const { source } = options
  const value = typeof input === 'string' ? parseJsonText(input, source) : input
  const version = (value as { schema_version?: unknown } | null)?.schema_version
  if (version !== RESULTS_SCHEMA_VERSION) {
    throw new ResultsFileError(
      source,
      `schema_version must be "${RESULTS_SCHEMA_VERSION}" (got ${JSON.stringify(version) ?? 'nothing'}); ` +
        'only results.json files of schema 2.0 can be read',
    )
  }
  const parsed = ResultsDocumentSchema.safeParse(normalizeReferenceResults(value))
  if (!parsed.success) {
    const issues = parsed.error.issues
    const listed = issues
      .slice(0, MAX_LISTED_ISSUES)
      .map((issue) => `${jsonPath(issue.path)}: ${issue.message}`)
      .join('; ')
    const more = issues.length > MAX_LISTED_ISSUES ? ` (and ${issues.length - MAX_LISTED_ISSUES} more)` : ''
    throw new ResultsFileError(source, `is not a valid results.json: ${listed}${more}`)
  }
  const document = parsed.data
  const counted = summarizeResults(document.results)
  for (const key of Object.keys(counted) as (keyof typeof counted)[]) {
    if (document.summary[key] !== counted[key]) {
      throw new ResultsFileError(
        source,
        `summary.${key} is ${document.summary[key]} but the rows count ${counted[key]}; the file was edited or truncated`,
      )
    }
  }
  try {
    assertUniqueRowKeys(document.results)
  } catch (error) {
    if (error instanceof DuplicateResultRowError) throw new ResultsFileError(source, error.message)
    throw error
  }
  return document
}

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Removes an older live-evals' never-registered `run.configuration.live_evals.interrupted` from a parsed document,
 * so the strict run block parses; returns whether it was set. Readers that must not take such a run for a whole
 * one (the gate, the merge of shards) call it before parseResultsDocument.
 */
export function takeInterruptedMarker(value: unknown): boolean {
  if (!isObject(value) || !isObject(value.run) || !isObject(value.run.configuration)) return false
  const block = value.run.configuration[EXTENSION_KEY]
  if (!isObject(block) || !('interrupted' in block)) return false
  const interrupted = block.interrupted === true
  delete block.interrupted
  return interrupted
}
