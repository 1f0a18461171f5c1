// The markers a merged results.json inherits from its shards. Each shard's reporter writes its own
// results.shard-<i>-of-<n>.json with `selection` (a filter chose part of it) and `completion` (it was interrupted,
// or a spec file failed before its scenarios ran); the blobs do not carry them, so the merge reads the shard
// documents. Without this a sharded run whose one shard could not load a spec file merges into a document the gate
// passes. A shard document that is not there (the shards ran on other machines and only the blobs were copied) is
// unknown, and the merge says so rather than guessing.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { completionExtension, type RunCompletion } from '../../reporting/extensions/completion.ts'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { type RunSelection, selectionExtension } from '../../reporting/extensions/selection.ts'
import type { PlannedRun } from '../run-plan-schema.ts'

/** The markers one shard's results document carries; null when its document cannot be read. */
export interface ShardMarkers {
  selection?: RunSelection
  completion?: RunCompletion
}

const ShardDocumentSchema = z.object({
  run: z.object({
    configuration: z.object({
      [EXTENSION_KEY]: z
        .object({
          selection: selectionExtension.schema.optional(),
          completion: completionExtension.schema.optional(),
        })
        .optional(),
    }),
  }),
})

/** Reads the markers of the shard document `run` names (its folder and results.shard-… file), null when unreadable. */
export function readShardMarkers(run: Pick<PlannedRun, 'directory' | 'resultsFile'>): ShardMarkers | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(join(run.directory, run.resultsFile), 'utf8'))
  } catch {
    return null
  }
  const parsed = ShardDocumentSchema.safeParse(value)
  if (!parsed.success) return null
  const block = parsed.data.run.configuration[EXTENSION_KEY]
  return {
    ...(block?.selection === undefined ? {} : { selection: block.selection }),
    ...(block?.completion === undefined ? {} : { completion: block.completion }),
  }
}

const ENDING_PRECEDENCE = ['killed', 'interrupted', 'spec_files_failed', 'duplicate_scenarios'] as const

/**
 * The merged run's markers: a shard that stopped early (interrupted, killed) makes the merge stop early; failing
 * spec files and refused duplicates of every shard are named together; any shard's selection makes the merge a selection, its counts the
 * merged run's. Counts are the merged run's (`rows`, `scenarios` planned or offered, `selected` that ran); in a
 * trials run the (scenario, trial) pairs too: `rows` ran, and each scenario was offered as many times as in a shard.
 */
export function combineShardMarkers(
  shards: readonly ShardMarkers[],
  merged: { rows: number; scenarios: number; selected: number },
): ShardMarkers {
  const completions = shards.flatMap((shard) => (shard.completion === undefined ? [] : [shard.completion]))
  // The larger gap names the ending, as in one process: stopped early, then spec files lost, then duplicates.
  const ending = ENDING_PRECEDENCE.find((each) =>
    completions.some((completion) => completion.ending === each),
  )
  const failedFiles = completions.flatMap((completion) => completion.failed_spec_files ?? [])
  const duplicates = completions.flatMap((completion) => completion.duplicate_scenarios ?? [])
  const completion: RunCompletion | undefined =
    ending === undefined
      ? undefined
      : {
          ending,
          finished_rows: merged.rows,
          planned_scenarios: merged.scenarios,
          ...(failedFiles.length === 0 ? {} : { failed_spec_files: failedFiles }),
          ...(duplicates.length === 0 ? {} : { duplicate_scenarios: duplicates }),
        }
  const selections = shards.flatMap((shard) => (shard.selection === undefined ? [] : [shard.selection]))
  const first = selections[0]
  // The shards of a trials run offer each of their scenarios k times, and so does the merged run.
  const trials = selections.find((each) => each.offered_trials !== undefined && each.offered_scenarios > 0)
  const perScenario =
    trials === undefined ? null : (trials.offered_trials as number) / trials.offered_scenarios
  const selection: RunSelection | undefined =
    first === undefined
      ? undefined
      : {
          selected_scenarios: merged.selected,
          offered_scenarios: merged.scenarios,
          ...(perScenario === null
            ? {}
            : { selected_trials: merged.rows, offered_trials: merged.scenarios * perScenario }),
          test_name_filter: first.test_name_filter,
          tags_filter: first.tags_filter,
          spec_files_left_out: [...new Set(selections.flatMap((each) => each.spec_files_left_out))].sort(),
        }
  return {
    ...(selection === undefined ? {} : { selection }),
    ...(completion === undefined ? {} : { completion }),
  }
}
