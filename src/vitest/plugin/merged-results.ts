// `vitest --merge-reports` of a sharded run: the rows every shard recorded (they travel in the blobs, on the
// test meta) become one results.json per architecture, as if the run had not been sharded. The shards of a run
// share its name and its folder `<results dir>/<run name>_<architecture>`; the merged document is written there,
// beside the shards' own results.shard-<i>-of-<n>.json. Every shard must be in the blobs: a merge that lacks one
// writes nothing and says which are missing, because a partial results.json would look like a whole run. The shards'
// own markers (a filter, a spec file that failed to load) carry over (shard-markers.ts). Shards on different
// machines never see each other's scenario claims, so two may run one scenario: the first row is kept and the
// second named, as one run does (reporters/run-results.ts), instead of the merge failing on it.
import { join } from 'node:path'
import {
  type FinishedScenarioTest,
  firstRowOfEachKey,
  rowsOfRun,
  specFileName,
} from '../../../reporters/run-results.ts'
import type { DuplicateScenario } from '../../reporting/extensions/completion.ts'
import type { ResultItem, ResultsDocument } from '../../reporting/result-schema.ts'
import { buildResultsDocument, withRunExtensions } from '../../reporting/results-document.ts'
import { rowKeyOf } from '../../reporting/row-key.ts'
import type { PlannedRun } from '../run-plan-schema.ts'
import { consoleLabel } from './console-label.ts'
import { RESULTS_FILE } from './run-directories.ts'
import type { RunStamp } from './run-stamp.ts'
import { shardLabel } from './shard.ts'
import { combineShardMarkers, readShardMarkers, type ShardMarkersRead } from './shard-markers.ts'

/** One test file of a sharded run, as the blobs hold it. */
export interface ShardModule {
  stamp: RunStamp
  tests: readonly FinishedScenarioTest[]
}

export interface MergedRun {
  architecture: PlannedRun['architecture']
  /** How console lines name it (consoleLabel): the architecture, with the model in a run of several. */
  label: string
  runName: string
  shardCount: number
  /** The merged results.json's path. */
  file: string
  document: ResultsDocument
}

interface ShardPart {
  run: PlannedRun
  scenarioIds: string[]
  /** Each row with the spec file whose test made it (null when the test did not say). */
  rows: { row: ResultItem; specFile: string | null }[]
  modules: Set<ShardModule>
}

interface Group {
  runName: string
  architecture: PlannedRun['architecture']
  /** How its messages name it (consoleLabel). */
  label: string
  counts: Set<number>
  parts: Map<number, ShardPart>
}

export interface MergeOptions {
  /** The markers of a shard's own results document, or why they are unknown; read from its folder by default. */
  shardMarkersOf?: (run: PlannedRun) => ShardMarkersRead
  /** Spec files are named relative to it in the merged completion marker; as given without it. */
  projectRoot?: string
}

/**
 * @param resultsDirOf where the merging process writes runs of a phase (its own settings), or null to write
 *   into the folder the shards used
 */
export function mergeShardedRuns(
  modules: readonly ShardModule[],
  resultsDirOf: (phase: RunStamp['phase']) => string | null,
  { shardMarkersOf = readShardMarkers, projectRoot }: MergeOptions = {},
): { merged: MergedRun[]; problems: string[] } {
  const groups = new Map<string, Group>()
  for (const module of modules) {
    const { stamp } = module
    if (stamp.shard === null || stamp.runName === null) continue
    for (const run of stamp.runs) {
      // A run of several models has one folder per (model, architecture): each merges on its own.
      const key = [
        stamp.phase,
        stamp.runName,
        run.multiModel ? (run.model ?? '') : '',
        run.architecture,
      ].join('\0')
      const group = groups.get(key) ?? {
        runName: stamp.runName,
        architecture: run.architecture,
        label: consoleLabel(run),
        counts: new Set<number>(),
        parts: new Map<number, ShardPart>(),
      }
      groups.set(key, group)
      group.counts.add(stamp.shard.count)
      const part = group.parts.get(stamp.shard.index) ?? {
        run,
        scenarioIds: stamp.scenarioIds,
        rows: [],
        modules: new Set<ShardModule>(),
      }
      group.parts.set(stamp.shard.index, part)
      if (!part.modules.has(module)) {
        part.modules.add(module)
        const specFile = module.tests.find((test) => test.specFile !== undefined)?.specFile
        const named = specFileName(specFile, projectRoot)
        part.rows.push(...rowsOfRun(run, module.tests).map((row) => ({ row, specFile: named })))
      }
    }
  }
  const merged: MergedRun[] = []
  const problems: string[] = []
  for (const [key, group] of groups) {
    const phase = key.split('\0')[0] as RunStamp['phase']
    const prefix = `[${group.label}] run "${group.runName}"`
    if (group.counts.size !== 1) {
      problems.push(
        `${prefix}: the blobs hold shards of ${[...group.counts].join(' and ')}-way splits; ` +
          'merge the blobs of one split only. No merged results.json was written.',
      )
      continue
    }
    const count = [...group.counts][0] ?? 0
    const missing = Array.from({ length: count }, (_, index) => index + 1).filter(
      (index) => !group.parts.has(index),
    )
    if (missing.length > 0) {
      problems.push(
        `${prefix}: shard${missing.length === 1 ? '' : 's'} ${missing.map((index) => `${index}/${count}`).join(', ')} ` +
          'missing from the blobs, so no merged results.json was written (a partial one would look like a whole run).',
      )
      continue
    }
    const parts = [...group.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part)
    const first = parts[0]
    if (first === undefined) continue
    const { rows, origins, duplicates } = rowsInShardOrder(parts, count, prefix, problems)
    const markers = parts.flatMap((part, index) => {
      const read = shardMarkersOf(part.run)
      if ('markers' in read) return [read.markers]
      problems.push(
        `${prefix}: shard ${shardLabel({ index: index + 1, count })}'s ${join(part.run.directory, part.run.resultsFile)} ` +
          `${read.unknown}, so whether a filter or a spec file that failed to load cut it short is unknown; ` +
          'copy the shard folders beside the blobs to carry their markers over.',
      )
      return []
    })
    const scenarioIds = parts.flatMap((part) => part.scenarioIds)
    const extensions = combineShardMarkers(
      markers,
      {
        rows: rows.length,
        scenarios: new Set(scenarioIds).size,
        selected: new Set(rows.map((row) => rowKeyOf(row).scenario_id)).size,
      },
      duplicates,
    )
    const document = buildResultsDocument(
      withRunExtensions(first.run.metadata, extensions),
      rows,
      scenarioIds,
      { origins },
    )
    const resultsDir = resultsDirOf(phase)
    const directory = resultsDir === null ? first.run.directory : join(resultsDir, first.run.name)
    merged.push({
      architecture: group.architecture,
      label: group.label,
      runName: group.runName,
      shardCount: count,
      file: join(directory, RESULTS_FILE),
      document,
    })
  }
  return { merged, problems }
}

/** The shards' rows in shard order, each (scenario, trial) once: a second row is named in `problems` and left out. */
function rowsInShardOrder(
  parts: readonly ShardPart[],
  count: number,
  prefix: string,
  problems: string[],
): { rows: ResultItem[]; origins: string[]; duplicates: DuplicateScenario[] } {
  const duplicates: DuplicateScenario[] = []
  const shardRows = parts.flatMap((part, index) =>
    part.rows.map(({ row, specFile }) => ({
      row,
      specFile,
      shard: shardLabel({ index: index + 1, count }),
      directory: part.run.directory,
    })),
  )
  const kept = firstRowOfEachKey(
    shardRows,
    ({ shard }) => `shard ${shard}`,
    (duplicate, { key: { scenario_id, trial }, item, first }) => {
      problems.push(
        `${prefix}: scenario "${scenario_id}" trial ${trial} has a second row in shard ${item.shard} (after shard ` +
          `${first.shard}): the merged results.json keeps the first and is marked incomplete; shards on different ` +
          "machines do not see each other's scenario claims, so evaluate each scenario from one spec file",
      )
      // Marked like a duplicate one machine refused, so the merged run is incomplete as the unsharded one is.
      duplicates.push(duplicate)
    },
  )
  return {
    rows: kept.map(({ row }) => row),
    origins: kept.map(({ shard, directory }) => join(directory, `shard ${shard}`)),
    duplicates,
  }
}
