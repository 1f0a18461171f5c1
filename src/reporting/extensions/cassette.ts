// Row extension `cassette`: the row was recorded into a cassette or replayed from one (src/cassettes). A replayed
// row names its cassette, the match mode, how many divergences were seen and the first one (which turn, which
// message, which JSON path, recorded vs now); strict replay makes the row an infrastructure_error at stage
// `replay`, lenient keeps the grades and lists what differed.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const DivergenceSchema = z.strictObject({
  /** "assistant", "caller" (a GPT-Live session) or "http". */
  channel: z.string(),
  /** 1-based assistant turn the divergence happened in (turns begin when the assistant starts a reply). */
  turn: z.int().nonnegative(),
  /** The message: "session.start #1", "POST /v1/responses #2", "tool_executions[0]". */
  message: z.string(),
  /** JSON path inside the message ("session.instructions"), empty for the whole message. */
  path: z.string(),
  recorded: z.string().nullable(),
  now: z.string().nullable(),
  /** One sentence: "assistant session.start #1: session.instructions changed at character 212 (…)". */
  text: z.string(),
})
export type Divergence = z.infer<typeof DivergenceSchema>

export const cassetteExtension = defineExtensionFeature({
  name: 'cassette',
  scope: 'row',
  version: '1.0',
  summary:
    'recorded into / replayed from which cassette; on replay the match mode, divergence count and the first divergence',
  schema: z.strictObject({
    mode: z.enum(['recorded', 'replay']),
    id: z.string(),
    /**
     * Replay: `replayed` (no divergence), `diverged`, `missing` (no cassette) or `refused` (another format version,
     * scenario or model, or unreadable); null for a recording.
     */
    outcome: z.enum(['replayed', 'diverged', 'missing', 'refused']).nullable(),
    match: z.enum(['strict', 'lenient']).nullable(),
    divergence_count: z.int().nonnegative().nullable(),
    first_divergence: DivergenceSchema.nullable(),
    /** Lenient replay: every divergence (bounded); strict stops at the first. */
    divergences: z.array(DivergenceSchema).max(50),
  }),
})
export type CassetteRowExtension = z.infer<typeof cassetteExtension.schema>
