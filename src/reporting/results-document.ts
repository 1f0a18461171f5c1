// The whole results.json document: run metadata, execution summary and the rows in dataset order.

import { summarizeConditionRobustness } from './condition-robustness.ts'
import type { RunExtensions } from './extensions/registry.ts'
import { EXTENSION_KEY, runExtensionBlock } from './extensions/registry.ts'
import { summarizeFaultProfiles } from './fault-profiles-summary.ts'
import { validateResultRow } from './result-item.ts'
import {
  RESULTS_SCHEMA_VERSION,
  type ResultItem,
  type ResultsDocument,
  type RunMetadata,
  RunMetadataSchema,
} from './result-schema.ts'
import { assistantsOf } from './row-assistant.ts'
import { assertUniqueRowKeys, rowKeyOf } from './row-key.ts'
import { summarizeResults } from './summary.ts'
import { summarizeTrials } from './trials-summary.ts'

export interface ResultsDocumentOptions {
  /**
   * Where each row came from (its spec file, or a shard's run directory), parallel to `rows`. Used only to name
   * both rows when two share one (scenario id, trial).
   */
  origins?: readonly (string | undefined)[]
}

/**
 * @param rows one row per executed scenario and trial, in any order; each is validated (an invalid one becomes a
 *   result_validation infrastructure row without affecting the others)
 * @param datasetOrder scenario ids in dataset order; rows are reported in that order, a scenario's trials ascending,
 *   unknown ids last in arrival order
 * @throws DuplicateResultRowError when two rows share a (scenario id, trial), naming both
 */
export function buildResultsDocument(
  run: RunMetadata,
  rows: readonly unknown[],
  datasetOrder: readonly string[],
  options: ResultsDocumentOptions = {},
): ResultsDocument {
  const runProblem = RunMetadataSchema.safeParse(run)
  if (!runProblem.success) {
    throw new Error(
      `results.json run metadata is invalid (${runProblem.error.issues
        .map((issue) => `run.${issue.path.map(String).join('.')}: ${issue.message}`)
        .join('; ')}); fix the phase that builds it`,
    )
  }
  const validated = rows.map((row) => validateResultRow(row))
  assertUniqueRowKeys(validated, options.origins)
  // Ids missing from the dataset rank after it, in the order they first arrived.
  const rank = new Map(datasetOrder.map((id, index) => [id, index]))
  let nextRank = datasetOrder.length
  for (const row of validated) if (!rank.has(row.scenario_id)) rank.set(row.scenario_id, nextRank++)
  const ordered = validated
    .map((row, arrival) => ({
      row,
      arrival,
      rank: rank.get(row.scenario_id) ?? 0,
      trial: rowKeyOf(row).trial,
    }))
    .sort((a, b) => a.rank - b.rank || a.trial - b.trial || a.arrival - b.arrival)
    .map((entry) => entry.row)
  // Every part is validated above (run, each row) or computed from them (summary, the row-derived run
  // features): no whole-document re-parse.
  return {
    schema_version: RESULTS_SCHEMA_VERSION,
    run: withRowDerivedFeatures(runProblem.data, ordered),
    summary: summarizeResults(ordered),
    results: ordered,
  }
}

/**
 * Run metadata with these features added to its extension block in `configuration.live_evals`; features the
 * block carries already are kept unless given again (unchanged when nothing applies).
 */
export function withRunExtensions(run: RunMetadata, extensions: RunExtensions | undefined): RunMetadata {
  if (runExtensionBlock(extensions) === undefined) return run
  return withRunBlock(run, { ...existingFeatures(run), ...extensions })
}

function existingFeatures(run: RunMetadata): RunExtensions {
  const { version: _version, ...features } = run.configuration[EXTENSION_KEY] ?? { version: undefined }
  return features
}

function withRunBlock(run: RunMetadata, features: RunExtensions): RunMetadata {
  const { [EXTENSION_KEY]: _previous, ...configuration } = run.configuration
  const block = runExtensionBlock(features)
  return {
    ...run,
    configuration: block === undefined ? configuration : { ...configuration, [EXTENSION_KEY]: block },
  }
}

/**
 * The features that are a function of the rows (`trials`, `condition_robustness`, `assistants`) are recomputed from them on
 * every build: a merged, rebuilt or regraded document never carries figures of other rows.
 */
function withRowDerivedFeatures(run: RunMetadata, rows: readonly ResultItem[]): RunMetadata {
  return withRunBlock(run, {
    ...existingFeatures(run),
    trials: summarizeTrials(rows) ?? undefined,
    fault_profiles: summarizeFaultProfiles(rows) ?? undefined,
    condition_robustness: summarizeConditionRobustness(rows) ?? undefined,
    assistants: assistantsOf(rows) ?? undefined,
  })
}
