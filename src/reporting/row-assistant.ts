// The assistant under test of a row (its `assistant` extension) and the run's list of them (`assistants`); see
// extensions/assistant.ts.

import { EXTENSION_KEY } from './extensions/registry.ts'
import { withRowExtension } from './extensions/with-row-extension.ts'
import type { ResultItem } from './result-schema.ts'

/** The row with its `assistant` extension set; null (unknown) leaves the row as it is. */
export function withAssistant<Row extends Pick<ResultItem, 'observability'>>(
  row: Row,
  assistant: string | null,
): Row {
  return assistant === null ? row : withRowExtension(row, 'assistant', assistant)
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
