// Row extension `checks`: deterministic checks of ours beyond the reference's list (issue 18), each as the
// reference would write a check plus its reason and evidence. The row's `assessment` lists only the reference's
// checks, but its `passed` and rationale (and the row's status) count these too: a required one that failed
// fails the scenario in results.json and in Vitest alike. `no_unexpected_side_effects` (RUN): a mutating tool that
// completed more often than the golden path or the expected state accounts for, with those calls. What the caller
// experiences when something fails (issue 22, src/grading/faults): `no_false_confirmation` (every phase),
// `verification_after_implausible_result`, `progress_statement_when_slow` and `dead_air_while_pending`.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const BEYOND_REFERENCE_CHECK_IDS = [
  'no_unexpected_side_effects',
  'no_false_confirmation',
  'verification_after_implausible_result',
  'progress_statement_when_slow',
  'dead_air_while_pending',
] as const

export const BeyondReferenceCheckSchema = z.strictObject({
  id: z.enum(BEYOND_REFERENCE_CHECK_IDS),
  status: z.enum(['passed', 'failed', 'not_applicable', 'not_assessed']),
  required: z.boolean(),
  reason: z.string(),
  evidence: z.record(z.string(), z.unknown()),
})

export const checksExtension = defineExtensionFeature({
  name: 'checks',
  scope: 'row',
  version: '1.0',
  summary:
    'deterministic checks beyond the reference (RUN: no_unexpected_side_effects, naming repeated mutating calls; every phase: no_false_confirmation, a success the assistant claimed that did not happen; under faults: verification_after_implausible_result, progress_statement_when_slow, dead_air_while_pending); a required one that failed fails the row',
  schema: z.array(BeyondReferenceCheckSchema).min(1),
})
