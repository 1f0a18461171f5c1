// The dataset of the missing-recording case (src/vitest/plugin/robustness.integration.test.ts): the corrected-date
// booking's clean and noisy recordings from the bundled WALK dataset, with only the clean one's file beside it.
// Written by the shared run of the fixture projects into its folder before it starts (synchronously: that run's
// variables are computed then), and read there by missing.spec.ts through MISSING_RECORDING_DATASET.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const BUNDLED_WALK_DATASET = join(import.meta.dirname, '../../../../../scenarios/walk/restaurant.json')
export const MISSING_RECORDING_IDS = [
  'walk_003_booking_corrected_date',
  'walk_003_booking_corrected_date_noisy',
] as const

export interface Recording {
  path: string
  metadata: unknown
}

/** Writes the dataset under `dir`/missing-recording and returns its path. */
export function writeMissingRecordingDataset(dir: string): string {
  const bundled = JSON.parse(readFileSync(BUNDLED_WALK_DATASET, 'utf8')) as {
    scenarios: { id: string; input: { recordings: Recording[] } }[]
  }
  const ids: readonly string[] = MISSING_RECORDING_IDS
  const scenarios = bundled.scenarios.filter((scenario) => ids.includes(scenario.id))
  const [clean] = scenarios.map((scenario) => scenario.input.recordings[0])
  if (scenarios.length !== 2 || clean === undefined) throw new Error('the bundled WALK dataset changed')
  const folder = join(dir, 'missing-recording')
  const dataset = join(folder, 'walk.json')
  mkdirSync(join(folder, 'audio'), { recursive: true })
  writeFileSync(dataset, JSON.stringify({ schema_version: '1.0', scenarios }))
  copyFileSync(join(dirname(BUNDLED_WALK_DATASET), clean.path), join(folder, clean.path))
  return dataset
}
