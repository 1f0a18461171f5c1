// The results.json summary: execution counts only. Scores belong to the rows; a summary that averaged them would
// pool unknowns with zeros.

import type { ResultItem, ResultsSummary } from './result-schema.ts'

export function summarizeResults(results: readonly Pick<ResultItem, 'status'>[]): ResultsSummary {
  return {
    total: results.length,
    passed: results.filter((row) => row.status === 'passed').length,
    failed: results.filter((row) => row.status === 'failed').length,
    infrastructure_errors: results.filter((row) => row.status === 'infrastructure_error').length,
  }
}
