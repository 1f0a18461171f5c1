// The one exit rule of `live-evals grade`, for a run folder and for cassettes alike: 0 when every row was graded
// (passed or failed: verdicts are the gate's to judge), 1 when a row was not graded (an infrastructure error,
// whether the re-grade made it or copied it) or, from cassettes, was graded over a conversation that left its
// recording (a lenient replay's divergence). Each such row is named, so a CI step never passes in silence.
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { ResultsDocument } from '../reporting/result-schema.ts'

/** One line per row that was not graded, or not graded over what was recorded: its scenario and why. */
export function rowsNotRegraded(document: ResultsDocument): string[] {
  return document.results.flatMap((row) => {
    if (row.status === 'infrastructure_error') {
      const { error } = row
      return [
        `${row.scenario_id}: infrastructure error${error === null ? '' : ` at ${error.stage}: ${error.message}`}`,
      ]
    }
    const cassette = row.observability?.[EXTENSION_KEY]?.cassette
    if (cassette?.outcome !== 'diverged') return []
    return [
      `${row.scenario_id}: graded although its replay diverged (${cassette.first_divergence?.text ?? 'no divergence named'})`,
    ]
  })
}

/** The stderr paragraph naming those rows; empty when there are none. */
export function rowsNotRegradedText(rows: readonly string[]): string {
  return rows.length === 0
    ? ''
    : `live-evals grade: ${rows.length} row(s) not re-graded over what was recorded:\n  ${rows.join('\n  ')}\n`
}
