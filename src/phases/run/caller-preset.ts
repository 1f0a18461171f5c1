// The run's acoustic preset on the simulated caller's voice, shared by the offline and the live driver.
import { dirname } from 'node:path'
import type { RealismOptions } from '../../audio/effects/index.ts'
import type { RunSettings } from '../../config/index.ts'

/**
 * The acoustic preset on the caller's voice (simulation.condition, seed), for both drivers. The settings already
 * refused an unknown condition; each call builds its own seeded processor from this (a clean one is skipped).
 */
export function callerPreset(settings: RunSettings): RealismOptions {
  const { condition, seed } = settings.simulation
  return { condition, seed, baseDirectory: dirname(settings.config_file) }
}
