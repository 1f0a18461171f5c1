// Putting the `cassette` extension (src/reporting/extensions/cassette.ts) and the replay's execution mode on a row.

import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import { withRowExtension } from '../reporting/extensions/with-row-extension.ts'
import type { ResultItem } from '../reporting/result-schema.ts'

export function withCassetteExtension<Row extends Pick<ResultItem, 'observability'>>(
  row: Row,
  cassette: CassetteRowExtension,
): Row {
  const withCassette = withRowExtension(row, 'cassette', cassette)
  // A replayed row says so where a row names its mode (the reference's provenance keeps `live` otherwise).
  const provenance = withCassette.observability?.provenance
  if (cassette.mode !== 'replay' || typeof provenance !== 'object' || provenance === null) return withCassette
  return {
    ...withCassette,
    observability: {
      ...withCassette.observability,
      provenance: { ...provenance, execution_mode: 'replay', cassette_id: cassette.id },
    },
  }
}
