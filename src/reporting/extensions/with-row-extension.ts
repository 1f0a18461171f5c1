// Setting one feature of a row's extension block after the row was built (the features added at the end of an
// execution, like a re-grade's or a replayed caller's): the block is created with its version when the row has
// none, and every other feature in it is kept.
import type { RowExtensions } from './registry.ts'
import { EXTENSION_KEY, EXTENSION_VERSION } from './registry.ts'

export function withRowExtension<
  Row extends { observability?: Record<string, unknown> | undefined },
  Name extends keyof RowExtensions,
>(row: Row, name: Name, value: RowExtensions[Name]): Row {
  const observability = row.observability ?? {}
  const block = (observability[EXTENSION_KEY] as Record<string, unknown> | undefined) ?? {
    version: EXTENSION_VERSION,
  }
  return { ...row, observability: { ...observability, [EXTENSION_KEY]: { ...block, [name]: value } } }
}
