// Run extension `datasets`: where the run's scenarios came from when spec files name their own (a dataset file
// beside the spec, or inline scenarios, named by the spec file). `run.dataset` then names the only source, or the
// first in dataset order; this lists them all. Absent when every row came from the run's default dataset.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const datasetsExtension = defineExtensionFeature({
  name: 'datasets',
  scope: 'run',
  version: '1.0',
  summary:
    'every source of the run’s scenarios (dataset files, or spec files for inline scenarios), in order',
  schema: z.array(z.string().min(1)).min(1),
})
