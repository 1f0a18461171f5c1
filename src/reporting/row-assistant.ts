// The assistant under test of a row (its `assistant` extension) and the run's list of them (`assistants`); see
// extensions/assistant.ts.

import { EXTENSION_KEY, EXTENSION_VERSION } from './extensions/registry.ts'
import type { ResultItem } from './result-schema.ts'

/** The row with its `assistant` extension set; null (unknown) leaves the row as it is. */
export function withAssistant<Row extends Pick<ResultItem, 'observability'>>(
  row: Row,
  assistant: string | null,
): Row {
  if (assistant === null) return row
  const observability = row.observability ?? {}
  const block = observability[EXTENSION_KEY] ?? { version: EXTENSION_VERSION }
  return { ...row, observability: { ...observability, [EXTENSION_KEY]: { ...block, assistant } } }
}

/** The distinct assistants of the rows, in row order; null when no row names one. */
export function assistantsOf(rows: readonly Pick<ResultItem, 'observability'>[]): string[] | null {
  const names = [
    ...new Set(
      rows.flatMap((row) => {
        const name = row.observability?.[EXTENSION_KEY]?.assistant
        return name === undefined ? [] : [name]
      }),
    ),
  ]
  return names.length === 0 ? null : names
}
