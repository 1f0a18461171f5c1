// The markers a merged results.json inherits from its shards. Each shard's reporter writes its own
// results.shard-<i>-of-<n>.json with `selection` (a filter chose part of it) and `completion` (it was interrupted,
// or a spec file failed before its scenarios ran); the blobs do not carry them, so the merge reads the shard
// documents, through parseResultsDocument as every reader of a results file does. Without this a sharded run whose
// one shard could not load a spec file merges into a document the gate passes. A shard document that is not there
// (the shards ran on other machines and only the blobs were copied) or is not a valid results.json is unknown, and
// the merge names it with why rather than guessing.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ReportingError } from '../../reporting/errors.ts'
import {
  type DuplicateScenario,
  type RunCompletion,
  runCompletion,
  STOPPED_ENDINGS,
} from '../../reporting/extensions/completion.ts'
import { EXTENSION_KEY, type RunExtensions } from '../../reporting/extensions/registry.ts'
import type { RunSelection } from '../../reporting/extensions/selection.ts'
import { parseResultsDocument, takeInterruptedMarker } from '../../reporting/results-file.ts'
import type { PlannedRun } from '../run-plan-schema.ts'

/**
 * What the merge takes from a shard's `completion`: its counts are the shard's, and the merge recounts; its planned
 * scenarios and trials (1.3) only say how many trials each scenario runs.
 */
export type ShardCompletion = Pick<RunCompletion, 'ending' | 'failed_spec_files' | 'duplicate_scenarios'> &
  Partial<Pick<RunCompletion, 'planned_scenarios' | 'planned_trials'>>

/** The markers one shard's results document carries. */
export interface ShardMarkers {
  selection?: RunSelection
  completion?: ShardCompletion
}

/** A shard document's markers, or why they are unknown (its file is missing, unreadable or not a results.json). */
export type ShardMarkersRead = { markers: ShardMarkers } | { unknown: string }

/** Reads the markers of the shard document `run` names (its folder and results.shard-… file). */
export function readShardMarkers(run: Pick<PlannedRun, 'directory' | 'resultsFile'>): ShardMarkersRead {
  const file = join(run.directory, run.resultsFile)
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return {
      unknown: code === undefined ? `is not JSON (${(error as Error).message})` : `cannot be read (${code})`,
    }
  }
  // An older live-evals marked a run stopped by a signal with a never-registered `interrupted: true`.
  const interrupted = takeInterruptedMarker(value)
  try {
    const block = parseResultsDocument(value, { source: file }).run.configuration[EXTENSION_KEY]
    const completion = block?.completion ?? (interrupted ? { ending: 'interrupted' as const } : undefined)
    return {
      markers: {
        ...(block?.selection === undefined ? {} : { selection: block.selection }),
        ...(completion === undefined ? {} : { completion }),
      },
    }
  } catch (error) {
    // Whatever is wrong with one shard's file is said about that shard; the merge goes on.
    if (error instanceof ReportingError) return { unknown: error.message.replace(`${file}: `, '') }
    return { unknown: `cannot be parsed (${String(error)})` }
  }
}

/**
 * The trials per scenario of the shards' run, as a shard's markers count them (planned or offered trials per
 * scenario; each shard runs every trial of its scenarios, so k is the same in all); null when none counts trials.
 */
function trialsPerScenario(shards: readonly ShardMarkers[]): number | null {
  for (const { completion, selection } of shards) {
    const planned = completion?.planned_scenarios ?? 0
    if (completion?.planned_trials !== undefined && planned > 0) return completion.planned_trials / planned
    if (selection?.offered_trials !== undefined && selection.offered_scenarios > 0)
      return selection.offered_trials / selection.offered_scenarios
  }
  return null
}

/**
 * The merged run's markers: a shard that stopped early (interrupted, killed) makes the merge stop early; failing
 * spec files and refused duplicates of every shard are named together; any shard's selection makes the merge a
 * selection, its counts the merged run's. Counts are the merged run's (`rows`, `scenarios` planned or offered,
 * `selected` that ran); in a trials run the (scenario, trial) pairs too: `rows` ran, and each scenario was planned
 * and offered as many times as in a shard.
 */
export function combineShardMarkers(
  shards: readonly ShardMarkers[],
  merged: { rows: number; scenarios: number; selected: number },
  /** Rows two shards both made for one (scenario, trial): the merge kept the first. */
  mergeDuplicates: readonly DuplicateScenario[] = [],
): Pick<RunExtensions, 'selection' | 'completion'> {
  // The shards of a trials run plan and offer each of their scenarios k times, and so does the merged run.
  const perScenario = trialsPerScenario(shards)
  const completions = shards.flatMap((shard) => (shard.completion === undefined ? [] : [shard.completion]))
  const completion = runCompletion({
    stopped: STOPPED_ENDINGS.find((ending) => completions.some((each) => each.ending === ending)),
    failedSpecFiles: completions.flatMap((each) => each.failed_spec_files ?? []),
    duplicates: [...completions.flatMap((each) => each.duplicate_scenarios ?? []), ...mergeDuplicates],
    finishedRows: merged.rows,
    plannedScenarios: merged.scenarios,
    trialsPerScenario: perScenario,
  })
  const selections = shards.flatMap((shard) => (shard.selection === undefined ? [] : [shard.selection]))
  const first = selections[0]
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
