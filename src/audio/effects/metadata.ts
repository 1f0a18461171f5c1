// The audio-realism metadata block of reference-toolkit §5, saved with every processed recording and run.
// Keys and shape are the reference's (snake_case; inactive effects null; packet_loss_rate always present,
// 0 when off; packet_loss_burst 1 by default). The schema is the type: readers validate with it.

import { z } from 'zod'
import { CONDITIONS, type Condition, type EffectSettings } from './presets.ts'
import { TELEPHONY_BAND_HZ, TELEPHONY_CODEC, TELEPHONY_SAMPLE_RATE_HZ } from './telephony-line.ts'

const nullableNumber = z.number().nullable()

export const AudioRealismEffects = z.strictObject({
  telephony: z.boolean(),
  telephony_sample_rate_hz: z.literal(TELEPHONY_SAMPLE_RATE_HZ).nullable(),
  telephony_band_hz: z.tuple([z.number(), z.number()]).nullable(),
  telephony_codec: z.literal(TELEPHONY_CODEC).nullable(),
  noise_rms: nullableNumber,
  background_speech: z.string().nullable(),
  background_gain: nullableNumber,
  echo_delay_ms: nullableNumber,
  echo_decay: nullableNumber,
  packet_loss_rate: z.number(),
  packet_loss_burst: z.number().int(),
  cough_every_ms: nullableNumber,
  non_directed_every_ms: nullableNumber,
})

export const AudioRealismObservations = z.strictObject({
  /** Chunks processed (one per call: one per tick of a call, one per effect frame of a recording). */
  processed_ticks: z.number().int(),
  /** Effect frames (frameMs each) processed (a trailing partial frame counts). */
  processed_frames: z.number().int(),
  lost_ticks: z.number().int(),
  lost_frames: z.number().int(),
  vocal_tic_events: z.number().int(),
  non_directed_events: z.number().int(),
})

export const AudioRealismMetadata = z.strictObject({
  preset: z.enum(CONDITIONS),
  condition: z.enum(CONDITIONS),
  seed: z.number().int(),
  sample_rate: z.literal(24000),
  effects: AudioRealismEffects,
  background_provenance: z.string().nullable(),
  observations: AudioRealismObservations,
})
export type AudioRealismMetadata = z.infer<typeof AudioRealismMetadata>
export type AudioRealismObservations = z.infer<typeof AudioRealismObservations>

/** The effects block for resolved settings; `backgroundName` is how the bed is named (null when off). */
export function effectsBlock(
  settings: EffectSettings,
  backgroundName: string | null,
): z.infer<typeof AudioRealismEffects> {
  const telephony = settings.telephony
  return {
    telephony,
    telephony_sample_rate_hz: telephony ? TELEPHONY_SAMPLE_RATE_HZ : null,
    telephony_band_hz: telephony ? [...TELEPHONY_BAND_HZ] : null,
    telephony_codec: telephony ? TELEPHONY_CODEC : null,
    noise_rms: settings.noiseRms,
    background_speech: settings.backgroundGain === null ? null : backgroundName,
    background_gain: settings.backgroundGain,
    echo_delay_ms: settings.echoDelayMs,
    echo_decay: settings.echoDecay,
    packet_loss_rate: settings.packetLossRate,
    packet_loss_burst: settings.packetLossBurst,
    cough_every_ms: settings.coughEveryMs,
    non_directed_every_ms: settings.nonDirectedEveryMs,
  }
}

export type { Condition }
