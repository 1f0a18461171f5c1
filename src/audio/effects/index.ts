// Acoustic conditions for recorded and live caller audio (reference-toolkit §5). Start here:
// RealismProcessor for a stream (one tick of a call at a time), applyRealism for a buffer, processWavFile for a file.
export { BUNDLED_BACKGROUND_NAME, BUNDLED_BACKGROUND_SPEECH } from './background-source.ts'
export { AudioRealismError } from './errors.ts'
export { AudioRealismMetadata } from './metadata.ts'
export {
  AudioRealismOverrides,
  CONDITIONS,
  type Condition,
  type EffectSettings,
  PRESETS,
  parseCondition,
  parseOverrides,
  resolveEffects,
} from './presets.ts'
export { type ProcessedFile, processWavFile } from './process-file.ts'
export {
  applyRealism,
  DEFAULT_EFFECT_FRAME_MS,
  type RealismOptions,
  RealismProcessor,
  type RealismResult,
  type RealismSummary,
} from './realism.ts'
export { TELEPHONY_LATENCY_MS } from './telephony.ts'
