// Row extension `regrade`: the row was re-graded from a cassette (`live-evals grade --cassettes`, replay.regrade):
// the recorded conversation played through today's code and graders. It names the cassette, says whether the
// scenario differs from the one recorded (a changed expectation is what a re-grade is for), and what became of the
// semantic judge: its recorded answers reused (today's requests equal the recorded ones), not re-judged (the
// reason names what changed; the semantic grades stay null, never an old or made-up score), or not run.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const regradeExtension = defineExtensionFeature({
  name: 'regrade',
  scope: 'row',
  version: '1.0',
  summary:
    're-graded from a cassette: which one, whether the scenario changed since, and whether the judge was reused, not re-judged (and why) or not run',
  schema: z.strictObject({
    cassette: z.string(),
    /** The scenario differs from the one recorded (its evaluator-only part: what the assistant hears is replayed). */
    scenario_changed: z.boolean(),
    judge: z.enum(['reused', 'not_rejudged', 'not_run']),
    judge_requests_reused: z.int().nonnegative(),
    /** Why the judge was not re-judged (the first judge request without a recorded answer); null otherwise. */
    reason: z.string().nullable(),
  }),
})
export type RegradeRowExtension = z.infer<typeof regradeExtension.schema>

/**
 * A re-graded row whose judge was not re-judged: it has no judgment by design (its `regrade.reason` says why), as an
 * offline row has none, so the default body does not ask it to satisfy the rubric.
 */
export function notRejudged(row: { observability?: Record<string, unknown> | undefined }): boolean {
  const block = row.observability?.live_evals as { regrade?: RegradeRowExtension } | undefined
  return block?.regrade?.judge === 'not_rejudged'
}
