// Run extension `condition_robustness`: whether each source scenario passed under every acoustic condition it was
// run with. WALK rows echo their recording; recordings made from one scenario share the recording's
// `metadata.generation.source_scenario_id`, and `condition` names the preset (clean, phone, noisy, ...). A source
// scenario is robust only when every row of it passed (every condition, every trial); a row that did not run (an
// infrastructure error, a refused recording) leaves it unknown (`robust: null`) unless another row of it failed.
// Fields added in 1.1 (`not_run`, `not_run_conditions`, `unknown`) are optional only so that 1.0 documents still
// read; every new document has them. Present only when at least
// one source scenario ran under two or more conditions: with one condition per scenario robustness says nothing
// the pass rate does not. Computed from the rows (see ../condition-robustness.ts).

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

const ConditionOutcomeSchema = z.strictObject({
  condition: z.string().min(1),
  /** The row's scenario id (a WALK recording's own id). */
  scenario_id: z.string().min(1),
  /** Rows under this condition (one per trial). */
  rows: z.number().int().min(1),
  passed: z.number().int().min(0),
  /** Rows that did not run (infrastructure errors: a missing or refused recording, a failed session). */
  not_run: z.number().int().min(0).optional(),
})

const SourceRobustnessSchema = z.strictObject({
  source_scenario_id: z.string().min(1),
  /** Null: no row of it failed, but one did not run, so whether it passes everywhere is unknown. */
  robust: z.boolean().nullable(),
  conditions: z.array(ConditionOutcomeSchema).min(1),
  /** Conditions with at least one row that ran and did not pass, in the order above. */
  failed_conditions: z.array(z.string()),
  /** Conditions with at least one row that did not run, in the order above. */
  not_run_conditions: z.array(z.string()).optional(),
})

export const conditionRobustnessExtension = defineExtensionFeature({
  name: 'condition_robustness',
  scope: 'run',
  version: '1.1',
  summary:
    'per source scenario (recording’s source_scenario_id): robust only if every row made from it passed; unknown (null) when one did not run',
  schema: z.strictObject({
    /** Source scenarios in the run, how many of them are robust, and how many are unknown (robust: null). */
    sources: z.number().int().min(1),
    robust: z.number().int().min(0),
    unknown: z.number().int().min(0).optional(),
    /** robust / the sources whose robustness is known; null when none is. */
    robust_rate: z.number().min(0).max(1).nullable(),
    /** Distinct conditions over the run, in first-seen order. */
    conditions: z.array(z.string().min(1)).min(1),
    scenarios: z.array(SourceRobustnessSchema).min(1),
  }),
})

export type ConditionRobustness = z.infer<typeof conditionRobustnessExtension.schema>
export type SourceRobustness = ConditionRobustness['scenarios'][number]
