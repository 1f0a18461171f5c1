// Run extension `condition_robustness`: whether each source scenario passed under every acoustic condition it was
// run with. WALK rows echo their recording; recordings made from one scenario share the recording's
// `metadata.generation.source_scenario_id`, and `condition` names the preset (clean, phone, noisy, ...). A source
// scenario is robust only when every row of it passed (every condition, every trial). Present only when at least
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
})

const SourceRobustnessSchema = z.strictObject({
  source_scenario_id: z.string().min(1),
  robust: z.boolean(),
  conditions: z.array(ConditionOutcomeSchema).min(1),
  /** Conditions with at least one row that did not pass, in the order above. */
  failed_conditions: z.array(z.string()),
})

export const conditionRobustnessExtension = defineExtensionFeature({
  name: 'condition_robustness',
  scope: 'run',
  version: '1.0',
  summary:
    'per source scenario (recording’s source_scenario_id): robust only if it passed under every condition it ran with',
  schema: z.strictObject({
    /** Source scenarios in the run, and how many of them are robust. */
    sources: z.number().int().min(1),
    robust: z.number().int().min(0),
    robust_rate: z.number().min(0).max(1),
    /** Distinct conditions over the run, in first-seen order. */
    conditions: z.array(z.string().min(1)).min(1),
    scenarios: z.array(SourceRobustnessSchema).min(1),
  }),
})

export type ConditionRobustness = z.infer<typeof conditionRobustnessExtension.schema>
export type SourceRobustness = ConditionRobustness['scenarios'][number]
