// The whole results.json document: run metadata, execution summary and the rows in dataset order.

import { validateResultRow } from './result-item.ts'
import {
  RESULTS_SCHEMA_VERSION,
  type ResultsDocument,
  type RunMetadata,
  RunMetadataSchema,
} from './result-schema.ts'
import { summarizeResults } from './summary.ts'

/**
 * @param rows one row per executed scenario, in any order; each is validated (an invalid one becomes a
 *   result_validation infrastructure row without affecting the others)
 * @param datasetOrder scenario ids in dataset order; rows are reported in that order, unknown ids last
 */
export function buildResultsDocument(
  run: RunMetadata,
  rows: readonly unknown[],
  datasetOrder: readonly string[],
): ResultsDocument {
  const runProblem = RunMetadataSchema.safeParse(run)
  if (!runProblem.success) {
    throw new Error(
      `results.json run metadata is invalid (${runProblem.error.issues
        .map((issue) => `run.${issue.path.map(String).join('.')}: ${issue.message}`)
        .join('; ')}); fix the phase that builds it`,
    )
  }
  const position = new Map(datasetOrder.map((id, index) => [id, index]))
  const validated = rows.map((row) => validateResultRow(row))
  // Stable sort: rows for ids missing from the dataset keep their arrival order at the end.
  const ordered = validated
    .map((row, arrival) => ({
      row,
      arrival,
      rank: position.get(row.scenario_id) ?? Number.POSITIVE_INFINITY,
    }))
    .sort((a, b) => a.rank - b.rank || a.arrival - b.arrival)
    .map((entry) => entry.row)
  // Every part is validated above (run, each row) or computed from them (summary): no whole-document re-parse.
  return {
    schema_version: RESULTS_SCHEMA_VERSION,
    run: runProblem.data,
    summary: summarizeResults(ordered),
    results: ordered,
  }
}
