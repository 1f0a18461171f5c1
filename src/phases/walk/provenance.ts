// How a generated recording says where it came from, in its dataset entry's `metadata`.
//
// Our own rows:      metadata = { language, speech_intervals, generation: OurGeneration }
// Another toolkit's: metadata = { ...theirs, untouched, live_evals: { generation: OurGeneration, speech_intervals } }
//
// `generation` uses the reference's keys (source, audio_realism, tts_model, tts_voice, source_scenario_id;
// source_scenario_id is required, condition robustness groups by it) plus ours (text, voice, engine, condition,
// seed, effects and how the audio was laid out). A generation block that names a `source` but not our
// `engine` was written by another tool: it is theirs, and filling its WAV puts ours beside it.
// The speech intervals are the caller's, measured on the clean signal before any effect and moved by the
// chain's latency, so noise and background talkers are never counted as caller speech.

import { z } from 'zod'
import { CONDITIONS } from '../../audio/effects/index.ts'
import { AudioRealismEffects, AudioRealismMetadata } from '../../audio/effects/metadata.ts'
import type { SpeechInterval } from '../../audio/speech-activity.ts'

export const SpeechIntervalsSchema = z.array(
  z.strictObject({ start_ms: z.number().nonnegative(), end_ms: z.number().nonnegative() }),
)

export const OurGenerationSchema = z.strictObject({
  source: z.literal('synthetic_speech'),
  audio_realism: AudioRealismMetadata,
  tts_model: z.string().min(1),
  tts_voice: z.string().min(1),
  source_scenario_id: z.string().min(1),
  text: z.string().min(1),
  voice: z.string().min(1),
  engine: z.enum(['espeak-ng', 'openai']),
  engine_version: z.string().nullable(),
  rate_wpm: z.number().int().positive().nullable(),
  condition: z.enum(CONDITIONS),
  seed: z.number().int().nonnegative(),
  /** The same block as audio_realism.effects, at the top where a reader looks for it. */
  effects: AudioRealismEffects,
  /** Silence around the speech in the WAV, and the fixed delay the condition's chain adds. */
  lead_in_ms: z.number().int().nonnegative(),
  tail_ms: z.number().int().nonnegative(),
  latency_ms: z.number().nonnegative(),
})
export type OurGeneration = z.infer<typeof OurGenerationSchema>

/** Where our provenance goes beside another toolkit's. */
const OUR_METADATA_KEY = 'live_evals'

type Metadata = Record<string, unknown>

function objectAt(value: unknown): Metadata | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : null
}

/** True when `metadata.generation` was written by another tool (it names a source but not our engine). */
export function generationIsForeign(metadata: Metadata): boolean {
  const generation = objectAt(metadata.generation)
  return generation !== null && generation.source !== undefined && generation.engine === undefined
}

/** Our generation block in a recording's metadata, wherever it sits; null when there is none. */
export function ourGeneration(metadata: Metadata): Metadata | null {
  if (generationIsForeign(metadata)) return objectAt(objectAt(metadata[OUR_METADATA_KEY])?.generation)
  return objectAt(metadata.generation)
}

function intervalsForMetadata(intervals: readonly SpeechInterval[]): z.infer<typeof SpeechIntervalsSchema> {
  // Whole milliseconds: the detector works on 10 ms frames, so nothing is lost, and the JSON stays readable.
  return intervals.map(({ startMs, endMs }) => ({ start_ms: Math.floor(startMs), end_ms: Math.ceil(endMs) }))
}

/** The metadata after a generation: ours replaces ours; theirs is kept as it is and ours goes beside it. */
export function withGeneration(
  metadata: Metadata,
  generation: OurGeneration,
  intervals: readonly SpeechInterval[],
): Metadata {
  const speech_intervals = intervalsForMetadata(intervals)
  if (generationIsForeign(metadata)) {
    return { ...metadata, [OUR_METADATA_KEY]: { generation, speech_intervals } }
  }
  return { language: 'en', ...metadata, speech_intervals, generation }
}
