// Setting a row's `pacing` extension (pacing.ts) after the row was built, like the `assistant` one: the phases
// build their rows through several paths (graded, RUN, regraded) and the clock's measure is added once at the end.
import type { PacingError } from './pacing.ts'
import { EXTENSION_KEY } from './registry.ts'
import { withRowExtension } from './with-row-extension.ts'

/** The row with its `pacing` extension set; undefined (the clock never ran) leaves the row as it is. */
export function withPacing<Row extends { observability?: Record<string, unknown> | undefined }>(
  row: Row,
  pacing: PacingError | null | undefined,
): Row {
  return pacing === undefined ? row : withRowExtension(row, 'pacing', pacing)
}

/** The row's `pacing` extension (how late its frames went out); null when it has none. */
export function pacingOfRow(row: {
  observability?: Record<string, unknown> | undefined
}): PacingError | null {
  const block = row.observability?.[EXTENSION_KEY] as { pacing?: PacingError | null } | undefined
  return block?.pacing ?? null
}

/**
 * The console summary's line for rows whose latency carries the pacing warning (none when no row does): which
 * scenarios, and the worst p99, so a reader of the console knows before opening the report.
 */
export function pacingWarningLine(
  /** How the line names the run: its architecture, with the model in a run of several. */
  label: string,
  rows: readonly { scenario_id: string; observability?: Record<string, unknown> | undefined }[],
): string | null {
  const warned = rows.flatMap((row) => {
    const pacing = pacingOfRow(row)
    return pacing?.warning == null ? [] : [{ id: row.scenario_id, p99: pacing.p99_ms ?? 0, pacing }]
  })
  if (warned.length === 0) return null
  const worst = warned.reduce((a, b) => (b.p99 > a.p99 ? b : a))
  const ids = [...new Set(warned.map((row) => row.id))]
  const named = ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ')
  return (
    `[${label}] Pacing warning: the harness sent audio frames late in ${warned.length} row(s) ` +
    `(worst p99 ${worst.p99} ms, threshold ${worst.pacing.warning_threshold_ms} ms); their latency metrics ` +
    `include the harness's own timing error: ${named}.`
  )
}
