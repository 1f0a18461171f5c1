// Run extension `completion`: a run that did not end by itself. Present only when the results are partial: the
// run was stopped by SIGINT/SIGTERM or Ctrl-C (`interrupted`, written by the run as it stopped), or killed before
// it could write anything (`killed`, rebuilt afterwards from its rows journal by `live-evals results`). A run that
// ended by itself has no `completion` key, so its results.json stays the reference's shape. Readers that gate on
// results (src/gate) refuse a document carrying it unless told partial results are fine.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const completionExtension = defineExtensionFeature({
  name: 'completion',
  scope: 'run',
  version: '1.0',
  summary:
    'present only on partial results: how the run stopped (interrupted or killed), its finished rows and planned scenarios',
  schema: z.strictObject({
    ending: z.enum(['interrupted', 'killed']),
    finished_rows: z.number().int().min(0),
    planned_scenarios: z.number().int().min(0),
  }),
})

export type RunCompletion = z.infer<typeof completionExtension.schema>
