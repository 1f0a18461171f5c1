// The one place for everything live-evals writes beyond the reference toolkit's results.json shapes.
//
// Decision. The reference's keys stay exactly as it writes them, and readers built for schema "2.0" keep working,
// so nothing is added where the reference's objects are closed (the document, `run`, `summary`, a row,
// `metrics.*`, `artifacts`, `error`). The reference leaves two objects free-form, copied as given without a fixed
// key set: a row's `observability` and the run's `configuration`. Our additions live in one namespaced key in each:
//
//   per row:  results[i].observability.live_evals = { "version": "1.0", <feature>: ..., ... }
//   per run:  run.configuration.live_evals        = { "version": "1.0", <feature>: ..., ... }
//
// `live_evals` cannot collide with the reference's own observability keys (provenance, interaction, tools,
// grading, completion, scenario, agenda) or configuration keys. A row or run with nothing to add has no block,
// so a plain run's results.json is byte-for-byte the reference's shape. `version` is the block's envelope
// version (this layout and its rules); each feature also declares the version of its own shape, listed in the
// README table (`extensionFeatureTable`). A feature only ever adds an optional key: its absence keeps its default
// meaning (no `trial` means trial 1).
//
// Adding a feature: write one file here (defineExtensionFeature with its zod schema) and add it to the row or run
// list below. Nobody edits result-schema.ts for it.

import type { z } from 'zod'
import { assistantExtension, assistantsExtension } from './assistant.ts'
import { callerReplayExtension } from './caller-replay.ts'
import { cassetteExtension } from './cassette.ts'
import { checksExtension } from './checks.ts'
import { completionExtension } from './completion.ts'
import { conditionRobustnessExtension } from './condition-robustness.ts'
import { datasetsExtension } from './datasets.ts'
import { type ExtensionFeature, extensionBlockSchema } from './define.ts'
import { expectedFailureExtension } from './expected-failure.ts'
import { faultProfilesExtension } from './fault-profiles.ts'
import { faultsExtension } from './faults.ts'
import { pacingExtension } from './pacing.ts'
import { regradeExtension } from './regrade.ts'
import { runTurnsExtension } from './run-turns.ts'
import { selectionExtension } from './selection.ts'
import { toolEvidenceExtension } from './tool-evidence.ts'
import { trialExtension } from './trial.ts'
import { trialsExtension } from './trials.ts'
import { voiceMetricsExtension } from './voice-metrics.ts'

/** The key of the block inside `observability` (per row) and `configuration` (per run). */
export const EXTENSION_KEY = 'live_evals'
export const EXTENSION_VERSION = '1.0'

export const ROW_EXTENSION_FEATURES = [
  trialExtension,
  runTurnsExtension,
  voiceMetricsExtension,
  checksExtension,
  faultsExtension,
  expectedFailureExtension,
  assistantExtension,
  cassetteExtension,
  pacingExtension,
  regradeExtension,
  callerReplayExtension,
] as const
export const RUN_EXTENSION_FEATURES = [
  datasetsExtension,
  completionExtension,
  selectionExtension,
  toolEvidenceExtension,
  trialsExtension,
  faultProfilesExtension,
  conditionRobustnessExtension,
  assistantsExtension,
] as const

export const RowExtensionBlockSchema = extensionBlockSchema(EXTENSION_VERSION, 'row', ROW_EXTENSION_FEATURES)
export const RunExtensionBlockSchema = extensionBlockSchema(EXTENSION_VERSION, 'run', RUN_EXTENSION_FEATURES)

export type RowExtensionBlock = z.infer<typeof RowExtensionBlockSchema>
export type RunExtensionBlock = z.infer<typeof RunExtensionBlockSchema>
/** What a phase contributes to a row's block: the feature parts, without the version. */
export type RowExtensions = Omit<RowExtensionBlock, 'version'>
export type RunExtensions = Omit<RunExtensionBlock, 'version'>

export interface ExtensionTableEntry {
  place: string
  key: string
  version: string
  summary: string
}

const PLACES = {
  row: `results[].observability.${EXTENSION_KEY}`,
  run: `run.configuration.${EXTENSION_KEY}`,
} as const

/** Every registered key with its place and version: the README's table comes from this. */
export function extensionFeatureTable(): ExtensionTableEntry[] {
  const features: readonly ExtensionFeature[] = [...ROW_EXTENSION_FEATURES, ...RUN_EXTENSION_FEATURES]
  return [
    ...(['row', 'run'] as const).map((scope) => ({
      place: PLACES[scope],
      key: 'version',
      version: EXTENSION_VERSION,
      summary: 'version of the block envelope (where it lives, its rules)',
    })),
    ...features.map((feature) => ({
      place: PLACES[feature.scope],
      key: feature.name,
      version: feature.version,
      summary: feature.summary,
    })),
  ]
}

/** The block for a row, or undefined when no feature applies (the row then stays exactly the reference's shape). */
export function rowExtensionBlock(parts: RowExtensions | undefined): RowExtensionBlock | undefined {
  return blockOf(parts) as RowExtensionBlock | undefined
}

export function runExtensionBlock(parts: RunExtensions | undefined): RunExtensionBlock | undefined {
  return blockOf(parts) as RunExtensionBlock | undefined
}

function blockOf(parts: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (parts === undefined) return undefined
  const present = Object.entries(parts).filter(([, value]) => value !== undefined)
  if (present.length === 0) return undefined
  return { version: EXTENSION_VERSION, ...Object.fromEntries(present) }
}
