// The run plan's shape (run-plan.ts builds it): plain JSON that crosses from the main process to workers and
// reporters. It lives apart from the planning so the reporters and the run stamp read it without importing what
// planning needs (the dataset loader, the phases, the assistants).
import { z } from 'zod'
import { phaseSettingsSchema } from '../config/index.ts'
import { LoadedRerunPlanSchema } from '../explain/rerun-plan.ts'
import { RunMetadataSchema } from '../reporting/result-schema.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import { ShardSchema } from './plugin/shard.ts'
import { ASSISTANT_ARCHITECTURES } from './settings.ts'

export const PlannedRunSchema = z.strictObject({
  /** The GPT-Live model this run evaluates (one run per model and architecture); absent in older stamps. */
  model: z.string().min(1).optional(),
  /** Whether the plan evaluates several models (folders and tests then name the model); absent means no. */
  multiModel: z.boolean().optional(),
  architecture: z.enum(ASSISTANT_ARCHITECTURES),
  /** In a run started by `live-evals explain`: the arm this run re-runs the explained scenario under. */
  arm: z.string().min(1).optional(),
  /** Absolute path of the run folder (shared by the shards of a named run). */
  directory: z.string().min(1),
  name: z.string().min(1),
  /** The file this process writes its results.json document to, inside `directory`. */
  resultsFile: z.string().min(1),
  /** A shard's claim folder inside the shared run folder; null when the run owns its folder. */
  claim: z.string().min(1).nullable(),
  /** results.json `run` block for this run. */
  metadata: RunMetadataSchema,
})

// Scenarios were validated against the contract when the dataset was loaded; the plan only carries them.
const isScenario = (value: unknown): value is LoadedScenario =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'

/** The plan's fields, without the consistency checks (so parts of it can be picked). */
export const RunPlanFieldsSchema = z.strictObject({
  phase: z.enum(['crawl', 'walk', 'run']),
  /** The TOML file that was read (LIVE_EVALS_CONFIG or the phase's own). */
  configFile: z.string().min(1),
  mode: z.enum(['offline', 'live']),
  /** Absolute path of the dataset file. */
  dataset: z.string().min(1),
  /** Vitest's root: results.json names the dataset and caches relative to it (never this machine's paths). */
  projectRoot: z.string().min(1),
  /** The name the shards of one run share (LIVE_EVALS_RUN_NAME); null when none was given. */
  runName: z.string().min(1).nullable(),
  /** Which part of a sharded run this process runs; null when not sharded. */
  shard: ShardSchema.nullable(),
  /** Ids of `scenarios`, in dataset order. */
  scenarioIds: z.array(z.string()),
  /** The validated, selected scenarios this process registers (this shard's), in dataset order. */
  scenarios: z.array(z.custom<LoadedScenario>(isScenario, { error: 'must be a loaded scenario' })),
  /**
   * Why the default dataset (`dataset.path`) has no scenarios to offer: it does not exist. Only a suite that
   * names no dataset of its own needs it, so that suite fails with this, and suites with their own run.
   */
  datasetProblem: z.string().nullable(),
  /** The phase's settings, resolved once in the main process. Holds credentials: never write it out. */
  settings: phaseSettingsSchema,
  runs: z.array(PlannedRunSchema).min(1),
  /** A run started by `live-evals explain` (LIVE_EVALS_EXPLAIN_PLAN): the scenario and arms it re-runs. */
  rerunPlan: LoadedRerunPlanSchema.optional(),
})

export const RunPlanSchema = RunPlanFieldsSchema.superRefine((plan, context) => {
  if (plan.settings.phase !== plan.phase) {
    context.addIssue({ code: 'custom', path: ['settings'], message: `are ${plan.settings.phase} settings` })
  }
  const ids = plan.scenarios.map((scenario) => scenario.id)
  if (ids.join('\n') !== plan.scenarioIds.join('\n')) {
    context.addIssue({ code: 'custom', path: ['scenarioIds'], message: 'must be the ids of `scenarios`' })
  }
})

export type PlannedRun = z.infer<typeof PlannedRunSchema>
export type RunPlan = z.infer<typeof RunPlanSchema>
