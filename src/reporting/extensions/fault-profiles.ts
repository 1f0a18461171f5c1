// Run extension `fault_profiles` (issue 22): the fault profiles the run's rows ran under, each with its
// definition (seed and rules), where it came from and how many rows it covered. Computed from the rows whenever a
// results document is built, as `trials` is, so a merged or rebuilt document says the same; absent when every
// row ran clean. With it, a reader (or `live-evals explain`, switching a profile off) knows what each row faced.
import { z } from 'zod'
import { FaultProfileSchema, FaultRuleSchema } from '../../config/fault-profiles.ts'
import { FAULT_SOURCES } from '../../faults/events.ts'
import { defineExtensionFeature } from './define.ts'

export const faultProfilesExtension = defineExtensionFeature({
  name: 'fault_profiles',
  scope: 'run',
  version: '1.0',
  summary:
    'the fault profiles the rows ran under: each one’s definition (seed, rules), source (setting or scenario tag) and row count',
  schema: z
    .array(
      z.strictObject({
        // Rules may be empty only for a profile this version does not bundle (listed by name and seed).
        profile: FaultProfileSchema.extend({ rules: z.array(FaultRuleSchema) }),
        sources: z.array(z.enum(FAULT_SOURCES)).min(1),
        rows: z.number().int().min(1),
      }),
    )
    .min(1),
})

export type RunFaultProfiles = z.infer<typeof faultProfilesExtension.schema>
