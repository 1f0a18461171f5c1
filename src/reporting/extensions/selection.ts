// Run extension `selection`: the run ran a chosen part of what its project offers, not all of it. Vitest picks
// tests by name (`-t`, tags) and by spec file (`vitest run specs/crawl/one.spec.ts`): such a run's results.json
// looks like a complete run of fewer scenarios, so it says which filter chose them and how many of the
// scenarios it was offered it ran. Absent when nothing was filtered out, so a full run keeps the reference's shape.
// A trials run offers each scenario k times (`[trial i/k]` in each test's name), so `-t "trial 1/"` runs every
// scenario but not every trial: 1.1 counts the (scenario, trial) pairs too, and decides by them.
// Readers that gate on results (src/gate) refuse a document carrying it unless told partial results are fine.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const selectionExtension = defineExtensionFeature({
  name: 'selection',
  scope: 'run',
  version: '1.1',
  summary:
    'present only on a filtered run: the test-name filter and the spec files left out, the scenarios it ran of those offered (1.1, in a trials run: the (scenario, trial) pairs too)',
  schema: z.strictObject({
    /** Distinct scenarios that ran (have a row). */
    selected_scenarios: z.number().int().min(0),
    /** Distinct scenarios the run's dataset and the spec files that ran offered (left-out spec files' unknown). */
    offered_scenarios: z.number().int().min(0),
    /** 1.1, in a trials run (execution.trials k > 1): the (scenario, trial) pairs that ran (have a row). */
    selected_trials: z.number().int().min(0).optional(),
    /** 1.1, in a trials run: the (scenario, trial) pairs offered, k for each offered scenario. */
    offered_trials: z.number().int().min(0).optional(),
    /** Vitest's test-name filter (`-t`, as a regular expression source), or null. */
    test_name_filter: z.string().nullable(),
    /** Vitest's tag filter (`--tags`), empty when none. */
    tags_filter: z.array(z.string()),
    /** The project's spec files this run did not run (relative to the project root), because of a file filter. */
    spec_files_left_out: z.array(z.string()),
  }),
})

export type RunSelection = z.infer<typeof selectionExtension.schema>
