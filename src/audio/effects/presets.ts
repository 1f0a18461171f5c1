// The seven acoustic conditions of reference-toolkit §5 as one table, the overrides with their bounds, and
// the resolution of a condition plus overrides into the effects to run. An override switches its effect on
// whatever the preset; the effect's other parameters then come from the preset if it already had the effect,
// else from that effect's own single-effect preset (noisy, echo, packet_loss, ...), so `clean` with only
// `echo_decay: 0.5` echoes at 120 ms.

import { z } from 'zod'
import { AUDIO_CONDITIONS, type AudioCondition } from '../../scenarios/scenario.ts'
import { AudioRealismError } from './errors.ts'

// The names are the scenario contract's (a recording's `condition`), so a dataset and the effects chain
// cannot drift apart.
export const CONDITIONS = AUDIO_CONDITIONS
export type Condition = AudioCondition

/** Every effect's parameters; null means the effect is off (packet loss is off at rate 0). */
export interface EffectSettings {
  telephony: boolean
  noiseRms: number | null
  /** null with a gain: the bundled conversation. */
  backgroundSpeech: string | null
  backgroundGain: number | null
  echoDelayMs: number | null
  echoDecay: number | null
  packetLossRate: number
  packetLossBurst: number
  coughEveryMs: number | null
  nonDirectedEveryMs: number | null
}

const OFF: EffectSettings = {
  telephony: false,
  noiseRms: null,
  backgroundSpeech: null,
  backgroundGain: null,
  echoDelayMs: null,
  echoDecay: null,
  packetLossRate: 0,
  packetLossBurst: 1,
  coughEveryMs: null,
  nonDirectedEveryMs: null,
}

export const PRESETS: Record<Condition, EffectSettings> = {
  clean: OFF,
  noisy: { ...OFF, noiseRms: 1200 },
  telephony: { ...OFF, telephony: true },
  background_speech: { ...OFF, backgroundGain: 0.65 },
  echo: { ...OFF, echoDelayMs: 120, echoDecay: 0.35 },
  packet_loss: { ...OFF, packetLossRate: 0.08, packetLossBurst: 2 },
  realistic: {
    telephony: true,
    noiseRms: 500,
    backgroundSpeech: null,
    backgroundGain: 0.4,
    echoDelayMs: 120,
    echoDecay: 0.25,
    packetLossRate: 0.04,
    packetLossBurst: 1,
    coughEveryMs: 3200,
    nonDirectedEveryMs: 4600,
  },
}

const everyMs = z.number().int().min(1).max(3_600_000)
/** Overrides, in the reference's snake_case keys, with §5's bounds. Unknown keys are refused. */
export const AudioRealismOverrides = z.strictObject({
  noise_rms: z.number().min(0).max(32767).optional(),
  background_speech: z.string().min(1).optional(),
  background_gain: z.number().min(0).max(1).optional(),
  echo_delay_ms: z.number().min(0).max(60_000).optional(),
  echo_decay: z.number().min(0).max(1).optional(),
  packet_loss_rate: z.number().min(0).max(1).optional(),
  packet_loss_burst: z.number().int().min(1).max(1000).optional(),
  cough_every_ms: everyMs.optional(),
  non_directed_every_ms: everyMs.optional(),
})
export type AudioRealismOverrides = z.infer<typeof AudioRealismOverrides>

/** The condition named by `name`, or an error listing the valid ones. */
export function parseCondition(name: string): Condition {
  if ((CONDITIONS as readonly string[]).includes(name)) return name as Condition
  throw new AudioRealismError(
    'condition',
    `Unknown acoustic condition "${name}"; valid conditions are ${CONDITIONS.join(', ')}.`,
  )
}

/** Check overrides against their bounds; the error names every field at fault and its bound. */
export function parseOverrides(raw: unknown): AudioRealismOverrides {
  const parsed = AudioRealismOverrides.safeParse(raw ?? {})
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || '(overrides)'}: ${issue.message}`,
  )
  const field = String(parsed.error.issues[0]?.path[0] ?? 'overrides')
  throw new AudioRealismError(field, `Invalid audio realism override: ${issues.join('; ')}.`)
}

/** The effects a condition runs once `overrides` are applied. */
export function resolveEffects(condition: Condition, overrides: AudioRealismOverrides = {}): EffectSettings {
  const base = PRESETS[condition]
  const settings = { ...base }
  const o = parseOverrides(overrides)
  if (o.noise_rms !== undefined) settings.noiseRms = o.noise_rms
  if (o.background_speech !== undefined || o.background_gain !== undefined) {
    settings.backgroundSpeech = o.background_speech ?? base.backgroundSpeech
    settings.backgroundGain =
      o.background_gain ?? base.backgroundGain ?? PRESETS.background_speech.backgroundGain
  }
  if (o.echo_delay_ms !== undefined || o.echo_decay !== undefined) {
    settings.echoDelayMs = o.echo_delay_ms ?? base.echoDelayMs ?? PRESETS.echo.echoDelayMs
    settings.echoDecay = o.echo_decay ?? base.echoDecay ?? PRESETS.echo.echoDecay
  }
  if (o.packet_loss_rate !== undefined || o.packet_loss_burst !== undefined) {
    const hadLoss = base.packetLossRate > 0
    settings.packetLossRate =
      o.packet_loss_rate ?? (hadLoss ? base.packetLossRate : PRESETS.packet_loss.packetLossRate)
    settings.packetLossBurst = o.packet_loss_burst ?? (hadLoss ? base.packetLossBurst : OFF.packetLossBurst)
  }
  if (o.cough_every_ms !== undefined) settings.coughEveryMs = o.cough_every_ms
  if (o.non_directed_every_ms !== undefined) settings.nonDirectedEveryMs = o.non_directed_every_ms
  return settings
}
