// Run extension `completion`: a run whose results are not the whole run. Present only when the results are partial:
// the run was stopped by SIGINT/SIGTERM or Ctrl-C (`interrupted`, written by the run as it stopped), killed before
// it could write anything (`killed`, rebuilt afterwards from its rows journal by `live-evals results`), or ended
// with spec files of its project that failed before their scenarios ran (`spec_files_failed`: a dataset path with
// a typo, an import that throws; Vitest fails the run, and the rows of the other spec files must not read as a
// whole run). A run that ended by itself with every spec file loaded has no `completion` key, so its results.json stays the reference's shape. Readers that gate on
// results (src/gate) refuse a document carrying it unless told partial results are fine.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const completionExtension = defineExtensionFeature({
  name: 'completion',
  scope: 'run',
  version: '1.1',
  summary:
    'present only on partial results: how the run stopped (interrupted or killed) or which spec files failed before their scenarios ran, its finished rows and planned scenarios',
  schema: z.strictObject({
    ending: z.enum(['interrupted', 'killed', 'spec_files_failed']),
    finished_rows: z.number().int().min(0),
    /** The scenarios known to the run; those of a spec file that failed to load are unknown, so not counted. */
    planned_scenarios: z.number().int().min(0),
    /** 1.1, with `spec_files_failed`: each spec file (relative to the project root) and its error's first line. */
    failed_spec_files: z.array(z.strictObject({ file: z.string().min(1), error: z.string() })).optional(),
  }),
})

export type RunCompletion = z.infer<typeof completionExtension.schema>
