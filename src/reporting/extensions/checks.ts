// Row extension `checks`: deterministic checks of ours beyond the reference's list (issue 18), each as the
// reference would write a check plus its reason and evidence. The row's `assessment` lists only the reference's
// checks, but its `passed` and rationale (and the row's status) count these too: a required one that failed
// fails the scenario in results.json and in Vitest alike. Today: `no_unexpected_side_effects` (RUN), a mutating
// tool that completed more often than the golden path or the expected state accounts for, with those calls.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const BeyondReferenceCheckSchema = z.strictObject({
  id: z.enum(['no_unexpected_side_effects', 'no_false_confirmation']),
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
    'deterministic checks beyond the reference (RUN: no_unexpected_side_effects, naming repeated mutating calls; no_false_confirmation, a success the assistant claimed that did not happen); a required one that failed fails the row',
  schema: z.array(BeyondReferenceCheckSchema).min(1),
})
