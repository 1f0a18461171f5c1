// The explain.json document (`live-evals explain`): for each failed scenario of a run, the unchanged re-run (the
// control) and each applicable intervention, re-run k times; per arm the pass rate with its 95% Wilson interval and
// the shift against the control with Newcombe's interval; the decisive intervention and the failure class read from
// those effects. Versioned, so a reader can refuse a document it does not know.
import { z } from 'zod'

export const EXPLAIN_VERSION = '1.0'

/** The interventions, in the order they are tried and reported (upstream causes first: hearing before tools). */
export const INTERVENTION_IDS = [
  'clean_audio',
  'text_for_audio',
  'remove_barge_in',
  'suppress_delegation',
  'force_delegation',
  'correct_tool_result',
  'faults_off',
] as const
export type InterventionId = (typeof INTERVENTION_IDS)[number]

/** The voice failure classes; `unexplained` and `not_reproduced` say why no class could be given. */
export const FAILURE_CLASSES = [
  'mishearing',
  'turn_taking',
  'delegation_decision',
  'tool_arguments',
  'backend_fault_handling',
  'state',
  'unexplained',
  'not_reproduced',
] as const
export type FailureClass = (typeof FAILURE_CLASSES)[number]

/** What an intervention did to the pass rate, judged on the shift's 95% interval. */
export const EFFECTS = ['fixes', 'worsens', 'no_shift', 'inconclusive', 'unknown'] as const
export type Effect = (typeof EFFECTS)[number]

const rate = z.number().min(0).max(1).nullable()
const shift = z.number().min(-1).max(1).nullable()

export const RerunSchema = z.strictObject({
  trial: z.int().positive(),
  /** The draws this trial ran with (the same for every arm of the scenario: the arms are paired). */
  draws: z.strictObject({
    caller_offset_ms: z.int().nonnegative(),
    preset_seed: z.int().nullable(),
    fault_seed: z.int().nullable(),
  }),
  status: z.enum(['passed', 'failed', 'infrastructure_error']),
  /**
   * Whether the run's failure is gone: none of the checks the run failed fails here, and nothing else fails but
   * the scenario's expected outcome (state, expected tool calls). The measure of the fault arms, whose scenario's
   * expected outcome assumes the fault. Null without a verdict.
   */
  resolved: z.boolean().nullable(),
  /** Ids of the required checks that failed (assertion checks of the default test body included). */
  failed_checks: z.array(z.string()),
  /** Deterministic grading dimensions that failed (parameter_accuracy, final_state, ...). */
  failed_dimensions: z.array(z.string()),
  error: z.strictObject({ stage: z.string(), message: z.string() }).nullable(),
  /** The re-run's details JSON, relative to the explain folder; null when none was written. */
  details: z.string().nullable(),
})
export type Rerun = z.infer<typeof RerunSchema>

/**
 * How an arm is judged: `verdict`, the re-run passed; `failure_resolved` (the fault arms), the run's failure is
 * gone (RerunSchema.resolved), since without the fault the scenario's expected outcome cannot hold.
 */
export const MEASURES = ['verdict', 'failure_resolved'] as const
export type Measure = (typeof MEASURES)[number]

export const ArmSchema = z.strictObject({
  /** `control` for the unchanged re-run. */
  arm: z.string(),
  intervention: z.enum(INTERVENTION_IDS).nullable(),
  /** What it changed, in words ("the caller's clean recording walk_001_…"). */
  label: z.string(),
  /** The one thing an intervention targets when it has several (a barge-in id); null otherwise. */
  target: z.string().nullable(),
  measure: z.enum(MEASURES),
  /** The failure class this arm names when it is decisive; null for the control. */
  class: z.enum(FAILURE_CLASSES).nullable(),
  reruns: z.array(RerunSchema),
  passed: z.int().nonnegative(),
  /** Re-runs whose run failure was resolved (RerunSchema.resolved). */
  resolved: z.int().nonnegative(),
  /** Re-runs with a verdict (passed + failed); infrastructure errors have none and are counted apart. */
  n: z.int().nonnegative(),
  infrastructure_errors: z.int().nonnegative(),
  /** The arm's successes on its measure (passed, or resolved) out of n, with the 95% Wilson interval. */
  successes: z.int().nonnegative(),
  rate: z.strictObject({ estimate: rate, lower: rate, upper: rate }),
  /** Against the control on the same measure: the difference with Newcombe's 95% interval; null for the control. */
  shift: z.strictObject({ delta: shift, lower: shift, upper: shift }).nullable(),
  effect: z.enum(EFFECTS).nullable(),
})
export type Arm = z.infer<typeof ArmSchema>

export const ClassificationSchema = z.strictObject({
  class: z.enum(FAILURE_CLASSES),
  /**
   * `intervention`: the decisive intervention's class; `remaining_checks`: no applicable intervention changed the
   * outcome and the class names what the unchanged re-runs still fail; `control`: the control did not fail.
   */
  basis: z.enum(['intervention', 'remaining_checks', 'control']),
  note: z.string(),
})
export type Classification = z.infer<typeof ClassificationSchema>

export const ExplanationSchema = z.strictObject({
  scenario_id: z.string(),
  title: z.string().nullable(),
  /** How the scenario did in the run: its failed trials (1-based) out of its rows. */
  run_rows: z.strictObject({ failed_trials: z.array(z.int().positive()), total: z.int().positive() }),
  original_failed_checks: z.array(z.string()),
  control: ArmSchema,
  interventions: z.array(ArmSchema),
  not_applicable: z.array(z.strictObject({ intervention: z.enum(INTERVENTION_IDS), reason: z.string() })),
  decisive: z
    .strictObject({
      arm: z.string(),
      intervention: z.enum(INTERVENTION_IDS),
      label: z.string(),
      measure: z.enum(MEASURES),
      successes: z.int().nonnegative(),
      n: z.int().nonnegative(),
    })
    .nullable(),
  classification: ClassificationSchema,
  /** One sentence: "fixed by the caller's clean audio in 5/5 (unchanged 0/5): a hearing failure". */
  summary: z.string(),
})
export type Explanation = z.infer<typeof ExplanationSchema>

export const NOT_EXPLAINED_REASONS = [
  'budget',
  'interrupted',
  'infrastructure_error',
  'judge_only',
  'unreadable',
] as const

export const ExplainDocumentSchema = z.strictObject({
  explain_version: z.literal(EXPLAIN_VERSION),
  created_at: z.iso.datetime(),
  run: z.strictObject({
    id: z.string(),
    /** The explained run folder (absolute). */
    directory: z.string(),
    module: z.string(),
    architecture: z.string(),
    execution_mode: z.string(),
  }),
  /** How the re-runs were made: offline against the offline GPT-Live server, or live against the service. */
  mode: z.enum(['offline', 'live']),
  /** Live WALK/RUN with `replay.caller`: the cassettes folder whose recorded callers the re-runs streamed; else null. */
  replayed_caller: z.string().nullable(),
  seed: z.int(),
  trials: z.int().positive(),
  /** What differs from one trial to the next, in words (the same for every arm). */
  trial_variation: z.array(z.string()),
  budget: z.strictObject({
    max_reruns: z.int().positive(),
    /** Re-runs every selected scenario would need. */
    planned_reruns: z.int().nonnegative(),
    /** Re-runs of the scenarios that fit under the cap (whole scenarios only). */
    admitted_reruns: z.int().nonnegative(),
    executed_reruns: z.int().nonnegative(),
    /** Estimated before anything ran, from the run's recorded usage and the price table; offline: 0, free. */
    estimate: z.strictObject({
      currency: z.string(),
      cost: z.number().nonnegative().nullable(),
      voice_minutes: z.number().nonnegative().nullable(),
      note: z.string(),
    }),
  }),
  completion: z.strictObject({
    ending: z.enum(['complete', 'budget', 'interrupted']),
    message: z.string(),
  }),
  explanations: z.array(ExplanationSchema),
  not_explained: z.array(
    z.strictObject({ scenario_id: z.string(), reason: z.enum(NOT_EXPLAINED_REASONS), message: z.string() }),
  ),
})
export type ExplainDocument = z.infer<typeof ExplainDocumentSchema>

/** The explain document's file name inside the explain folder, and the Markdown summary's. */
export const EXPLAIN_FILE = 'explain.json'
export const SUMMARY_FILE = 'explain.md'
