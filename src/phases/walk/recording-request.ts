// What `walk generate-audio` records for one recording entry, read from the dataset row: the text (the
// recording's own transcript, else the row's input.text), the condition (the entry's), the seed and the
// scenario it varies. Another toolkit's entry is honoured as it stands: its audio_realism seed, and any
// effect parameter it records that differs from our preset's default becomes an override, so the WAV we make
// is the recording it describes (its background file is not shipped either, so ours stands in for it).

import { type Condition, parseCondition, resolveEffects } from '../../audio/effects/index.ts'
import { effectsBlock } from '../../audio/effects/metadata.ts'
import { generationIsForeign, ourGeneration } from './provenance.ts'

export interface RecordingRequest {
  text: string
  condition: Condition
  seed: number
  overrides: Record<string, number | string>
  sourceScenarioId: string
}

type Metadata = Record<string, unknown>

const NUMERIC_OVERRIDES = [
  'noise_rms',
  'background_gain',
  'echo_delay_ms',
  'echo_decay',
  'packet_loss_rate',
  'packet_loss_burst',
  'cough_every_ms',
  'non_directed_every_ms',
] as const

function objectAt(value: unknown): Metadata | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : null
}

function integerAt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

/** Overrides that make our chain match the effects another toolkit recorded for this condition. */
function overridesFromRecordedEffects(condition: Condition, recorded: unknown): Record<string, number> {
  const theirs = objectAt(recorded)
  if (theirs === null) return {}
  const ours: Record<string, unknown> = effectsBlock(resolveEffects(condition), null)
  const overrides: Record<string, number> = {}
  for (const key of NUMERIC_OVERRIDES) {
    const value = theirs[key]
    if (typeof value !== 'number' || value === ours[key]) continue
    // A burst without loss means nothing (both toolkits record 1 then); a rate of 0 means loss is off.
    if (key === 'packet_loss_burst' && theirs.packet_loss_rate === 0) continue
    if (key === 'packet_loss_rate' && value === 0) continue
    overrides[key] = value
  }
  return overrides
}

export function recordingRequest(
  scenario: { id: string; input: { text: string } },
  recording: { condition: string; metadata: Metadata },
  defaults: { seed: number; overrides: Record<string, number | string> },
): RecordingRequest {
  const condition = parseCondition(recording.condition)
  const metadata = recording.metadata
  const transcript = metadata.transcript
  const text = typeof transcript === 'string' && transcript.trim() !== '' ? transcript : scenario.input.text
  const ours = ourGeneration(metadata)
  const theirs = generationIsForeign(metadata) ? objectAt(metadata.generation) : null
  const theirRealism = objectAt(theirs?.audio_realism)
  const seed = integerAt(ours?.seed) ?? integerAt(theirRealism?.seed) ?? defaults.seed
  const sourceId = [ours?.source_scenario_id, theirs?.source_scenario_id].find(
    (id): id is string => typeof id === 'string' && id !== '',
  )
  return {
    text,
    condition,
    seed,
    overrides: { ...overridesFromRecordedEffects(condition, theirRealism?.effects), ...defaults.overrides },
    sourceScenarioId: sourceId ?? scenario.id,
  }
}
