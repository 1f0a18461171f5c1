// Row extension `voice_metrics`: the voice metrics teams ask for before switching a model (issue 21), measured on
// the one timeline of both speakers after the call. Each metric is defined once in src/metrics (one file per
// metric or close family); this is only their shape. Unknown is null, never 0: a part that nothing in the call
// applied to (no barge-in, no backchannel, no expectation of length, no expected entity) is null.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

const milliseconds = () => z.number().nonnegative().nullable()
const count = () => z.number().int().nonnegative()

export const DelegationLatencySchema = z.strictObject({
  /** Caller requests whose window held delegated work (a delegation or a tool result). */
  tool_turns: z.strictObject({
    count: count(),
    /** Means over the requests where that moment was observed; null when none. */
    first_word_ms: milliseconds(),
    acknowledgement_ms: milliseconds(),
    first_result_spoken_ms: milliseconds(),
    verified_answer_ms: milliseconds(),
  }),
  /** Requests answered without delegated work: the first word is the answer. */
  non_tool_turns: z.strictObject({
    count: count(),
    first_word_ms: milliseconds(),
    verified_answer_ms: milliseconds(),
  }),
  /** Assistant-first opening: from the start of the call to the assistant's first voice; null when the caller spoke first. */
  greeting_latency_ms: milliseconds(),
})
export type DelegationLatency = z.infer<typeof DelegationLatencySchema>

export const StopTimeSchema = z.strictObject({
  /** Caller barge-ins (scheduled and found after the fact). */
  barge_ins: count(),
  /** Of those, the ones that began while the assistant was talking: the only ones with something to stop. */
  while_talking: count(),
  mean_ms: milliseconds(),
  max_ms: milliseconds(),
})
export type StopTime = z.infer<typeof StopTimeSchema>

export const TalkRatioSchema = z.strictObject({
  assistant_ms: z.number().nonnegative(),
  caller_ms: z.number().nonnegative(),
  /** assistant / (assistant + caller); null when nobody spoke. */
  ratio: z.number().min(0).max(1).nullable(),
})
export type TalkRatio = z.infer<typeof TalkRatioSchema>

export const RepetitionSchema = z.strictObject({
  /** Assistant utterances long enough to be compared (fillers like "One moment." are not). */
  utterances: count(),
  repeated: count(),
  /** repeated / utterances; null when no utterance was long enough. */
  rate: z.number().min(0).max(1).nullable(),
  /** The repeated utterances as said (the first few), with the earlier one they repeat. */
  examples: z.array(z.strictObject({ text: z.string(), repeats: z.string() })).max(5),
})
export type Repetition = z.infer<typeof RepetitionSchema>

export const VerbositySchema = z.strictObject({
  assistant_turns: count(),
  /** Mean words per assistant utterance; null without one. */
  words_per_turn: z.number().nonnegative().nullable(),
  /** The scenario's expectation (its `max_words_per_turn:N` tag); null when it states none. */
  expected_max_words: z.number().int().positive().nullable(),
  /** words_per_turn / expected_max_words (above 1 is wordier than expected); null without both. */
  ratio: z.number().nonnegative().nullable(),
  /** Utterances longer than the expectation; null without one. */
  turns_over: count().nullable(),
})
export type Verbosity = z.infer<typeof VerbositySchema>

export const BackchannelSelectivitySchema = z.strictObject({
  backchannels: count(),
  answered: count(),
  ignored: count(),
  /** ignored / backchannels (1: none was answered); null without a backchannel. */
  selectivity: z.number().min(0).max(1).nullable(),
})
export type BackchannelSelectivity = z.infer<typeof BackchannelSelectivitySchema>

export const EntityKindSchema = z.enum(['name', 'date', 'time', 'id'])

export const EntityOutcomeSchema = z.strictObject({
  kind: EntityKindSchema,
  /** Where the expectation holds it, e.g. `tools.required[0].arguments.guest_name` or `state.reservations[0].reservation_id`. */
  source: z.string(),
  expected: z.union([z.string(), z.number()]),
  /** correct: sent to a tool or said as expected; altered: a tool got another value; missing: neither. */
  status: z.enum(['correct', 'altered', 'missing']),
  /** The value a tool got instead (altered only); null otherwise. */
  observed: z.unknown(),
  /** Where it was found: `tool` or `speech`; null when missing. */
  found_in: z.enum(['tool', 'speech']).nullable(),
})
export type EntityOutcome = z.infer<typeof EntityOutcomeSchema>

export const EntityErrorsSchema = z.strictObject({
  entities: count(),
  /** missing + altered; null when the scenario expects no entity. */
  errors: count().nullable(),
  by_entity: z.array(EntityOutcomeSchema),
})
export type EntityErrors = z.infer<typeof EntityErrorsSchema>

export const VoiceMetricsSchema = z.strictObject({
  delegation_latency: DelegationLatencySchema,
  stop_time: StopTimeSchema,
  talk_ratio: TalkRatioSchema,
  repetition: RepetitionSchema,
  verbosity: VerbositySchema,
  backchannel_selectivity: BackchannelSelectivitySchema,
  entity_errors: EntityErrorsSchema,
})
export type VoiceMetrics = z.infer<typeof VoiceMetricsSchema>

export const voiceMetricsExtension = defineExtensionFeature({
  name: 'voice_metrics',
  scope: 'row',
  version: '1.0',
  summary:
    'every phase: delegation latency split (first word, acknowledgement, first result, verified answer; greeting apart), stop time after a barge-in, talk ratio, repetition, verbosity, backchannel selectivity, entity errors by entity',
  schema: VoiceMetricsSchema,
})
