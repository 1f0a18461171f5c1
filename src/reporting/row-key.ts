// A results.json row is keyed by (scenario id, trial): repeated trials of one scenario are distinct rows, while the
// same key twice in one run directory is a mistake (two spec files or shards ran the same scenario into one run).

import { DuplicateResultRowError } from './errors.ts'
import { EXTENSION_KEY } from './extensions/registry.ts'
import { withRowExtension } from './extensions/with-row-extension.ts'
import type { ResultItem } from './result-schema.ts'

/** The trial of a row written without a trials setting: every scenario then runs exactly once. */
export const DEFAULT_TRIAL = 1

export interface RowKey {
  scenario_id: string
  trial: number
}

export function rowKeyOf(row: Pick<ResultItem, 'scenario_id' | 'observability'>): RowKey {
  return { scenario_id: row.scenario_id, trial: row.observability?.[EXTENSION_KEY]?.trial ?? DEFAULT_TRIAL }
}

/**
 * Where a trial's artifacts go below the run folder (audio/<name>/, transcripts/<name>.json, events/<name>.jsonl):
 * the scenario id, with `__t<i>` appended for every trial of a trials run, the first too. No trial then
 * overwrites another, and no scenario's folder can be another's trial folder (in a trials run every folder has
 * the suffix; without trials none has).
 */
export function trialArtifactName(scenarioId: string, trial: number | null): string {
  return trial === null ? scenarioId : `${scenarioId}__t${trial}`
}

/** The row with its `trial` extension set (a trials run sets it on every row, trial 1 too); null leaves it as is. */
export function withTrial<Row extends Pick<ResultItem, 'observability'>>(
  row: Row,
  trial: number | null,
): Row {
  return trial === null ? row : withRowExtension(row, 'trial', trial)
}

function describeRow(position: number, origin: string | undefined): string {
  return origin === undefined ? `rows[${position}]` : `rows[${position}] (from ${origin})`
}

/**
 * Refuses two rows with one key, naming both.
 * @param origins where each row came from (a spec file, a shard's run directory), parallel to `rows`; optional
 */
export function assertUniqueRowKeys(
  rows: readonly Pick<ResultItem, 'scenario_id' | 'observability'>[],
  origins: readonly (string | undefined)[] = [],
): void {
  const firstPosition = new Map<string, number>()
  rows.forEach((row, position) => {
    const key = rowKeyOf(row)
    const text = JSON.stringify([key.scenario_id, key.trial])
    const earlier = firstPosition.get(text)
    if (earlier === undefined) {
      firstPosition.set(text, position)
      return
    }
    throw new DuplicateResultRowError(
      key.scenario_id,
      key.trial,
      [earlier, position],
      `results.json cannot hold scenario "${key.scenario_id}" trial ${key.trial} twice: ` +
        `${describeRow(earlier, origins[earlier])} and ${describeRow(position, origins[position])}. ` +
        'A run directory holds each (scenario id, trial) once: run the scenario in one spec file only, ' +
        'give repeated executions their trial numbers, or write them to separate run directories.',
    )
  })
}
