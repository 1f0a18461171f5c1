// Row extension `trial`: which repetition of a scenario a row is. A row is keyed by (scenario id, trial); without a
// trials setting every scenario runs once, the key is absent and the trial is 1 (see ../row-key.ts).

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const trialExtension = defineExtensionFeature({
  name: 'trial',
  scope: 'row',
  version: '1.0',
  summary: '1-based trial number of a repeated scenario; absent means trial 1 (no trials setting)',
  schema: z.number().int().min(1, 'trial is 1-based'),
})
