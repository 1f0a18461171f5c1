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

/** An item with the (scenario id, trial) of an earlier one; positions index the items given. */
export interface RepeatedRowKey<Item> {
  key: RowKey
  item: Item
  position: number
  first: Item
  firstPosition: number
}

/**
 * The items in their order with each (scenario id, trial) once: the first item with a key keeps it, and each later
 * one is handed to `onRepeat` (which may throw to refuse it) and left out. The one rule for a key twice: a run's
 * rows, a shard merge and a results file all apply it, each saying so in its own words.
 */
export function firstOfEachRowKey<Item>(
  items: readonly Item[],
  keyOf: (item: Item) => RowKey,
  onRepeat: (repeat: RepeatedRowKey<Item>) => void,
): Item[] {
  const firstPosition = new Map<string, number>()
  return items.filter((item, position) => {
    const key = keyOf(item)
    const text = JSON.stringify([key.scenario_id, key.trial])
    const earlier = firstPosition.get(text)
    if (earlier === undefined) {
      firstPosition.set(text, position)
      return true
    }
    onRepeat({ key, item, position, first: items[earlier] as Item, firstPosition: earlier })
    return false
  })
}

/**
 * Refuses two rows with one key, naming both.
 * @param origins where each row came from (a spec file, a shard's run directory), parallel to `rows`; optional
 */
export function assertUniqueRowKeys(
  rows: readonly Pick<ResultItem, 'scenario_id' | 'observability'>[],
  origins: readonly (string | undefined)[] = [],
): void {
  firstOfEachRowKey(rows, rowKeyOf, ({ key, position, firstPosition }) => {
    throw new DuplicateResultRowError(
      key.scenario_id,
      key.trial,
      [firstPosition, position],
      `results.json cannot hold scenario "${key.scenario_id}" trial ${key.trial} twice: ` +
        `${describeRow(firstPosition, origins[firstPosition])} and ${describeRow(position, origins[position])}. ` +
        'A run directory holds each (scenario id, trial) once: run the scenario in one spec file only, ' +
        'give repeated executions their trial numbers, or write them to separate run directories.',
    )
  })
}
