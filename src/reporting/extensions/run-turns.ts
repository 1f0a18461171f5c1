// Row extension `run_turns`: RUN turn metrics the reference does not have (issue 13), measured on the one
// timeline of both speakers: how often and how fast the assistant yielded to a caller barge-in (scheduled or
// not; a cue that landed while the assistant was quiet is counted as unexercised, never as a pass), and the time
// to a verified answer for tool and non-tool turns apart (one definition of a tool turn: gate/latency.ts).

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

const AnswerSummarySchema = z.strictObject({
  /** Caller requests of this kind. */
  count: z.number().int().nonnegative(),
  /** Mean over the answered ones; null when none was answered. */
  mean_ms: z.number().nonnegative().nullable(),
})

export const RunTurnMetricsSchema = z.strictObject({
  /** Yielded / exercised barge-ins; null when none was exercised. */
  yield_rate: z.number().min(0).max(1).nullable(),
  /** Mean time from the cue to the end of the assistant's voice, over the yielded ones; null when none. */
  yield_latency_ms: z.number().nonnegative().nullable(),
  barge_ins: z.strictObject({
    exercised: z.number().int().nonnegative(),
    unexercised: z.number().int().nonnegative(),
  }),
  time_to_verified_answer_ms: z.strictObject({
    tool_turns: AnswerSummarySchema,
    non_tool_turns: AnswerSummarySchema,
  }),
})
export type RunTurnMetrics = z.infer<typeof RunTurnMetricsSchema>

export const runTurnsExtension = defineExtensionFeature({
  name: 'run_turns',
  scope: 'row',
  version: '1.0',
  summary:
    'RUN: yield rate and latency over exercised caller barge-ins, time to verified answer for tool and non-tool turns',
  schema: RunTurnMetricsSchema,
})
