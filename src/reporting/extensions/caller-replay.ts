// Row extension `caller_replay`: the row's caller was a recording (replay.caller) streamed on its original clock
// into the live assistant. A recorded caller cannot react to new behaviour, so the row says where the conversation
// left the recording (the first assistant turn that differs in meaning from the recorded one, both texts shown)
// and what was graded: the whole call when it never left; otherwise what came before the caller's next line,
// because the caller was silenced there (its recorded lines answer another assistant).

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const CallerReplayDepartureSchema = z.strictObject({
  /** The assistant turn that differs: 0 before the caller first spoke, k the reply to the caller's k-th line. */
  turn: z.int().nonnegative(),
  recorded: z.string(),
  now: z.string(),
  /** When (recorded caller time, ms) the caller was silenced; null when the last turn differed (nothing followed). */
  caller_silenced_at_ms: z.number().nullable(),
})
export type CallerReplayDeparture = z.infer<typeof CallerReplayDepartureSchema>

const ToolCallSchema = z.strictObject({ name: z.string(), arguments: z.unknown() })

export const callerReplayExtension = defineExtensionFeature({
  name: 'caller_replay',
  scope: 'row',
  version: '1.0',
  summary:
    'replay.caller: the recorded caller streamed into the live assistant; where the conversation left the recording, and what was graded',
  schema: z.strictObject({
    cassette: z.string(),
    /** Who answered the assistant's tools: the application, or the recorded outputs. */
    tools: z.enum(['application', 'cassette']),
    /** The recorded assistant turns compared against. */
    recorded_turns: z.int().nonnegative(),
    departure: CallerReplayDepartureSchema.nullable(),
    /** The tool calls of the recording and of this run (name and arguments), for a reader to compare. */
    tool_calls: z.strictObject({ recorded: z.array(ToolCallSchema), now: z.array(ToolCallSchema) }),
    graded: z.enum(['whole_call', 'until_departure']),
    /** One sentence on what is comparable, for the report and the console. */
    note: z.string(),
  }),
})
export type CallerReplayRowExtension = z.infer<typeof callerReplayExtension.schema>
