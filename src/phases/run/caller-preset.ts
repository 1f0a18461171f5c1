// The run's acoustic preset on the simulated caller's voice, shared by the offline and the live driver.
import { dirname } from 'node:path'
import type { RealismOptions } from '../../audio/effects/index.ts'
import type { RunSettings } from '../../config/index.ts'

/**
 * The acoustic preset on the caller's voice (simulation.condition, seed), for both drivers. The settings already
 * refused an unknown condition; each call builds its own seeded processor from this (a clean one is skipped).
 * Its effect frame is the tick, as in the reference (§5: frames are tick-sized), so packet loss drops whole ticks.
 */
export function callerPreset(settings: RunSettings): RealismOptions {
  const { condition, seed, tick_ms } = settings.simulation
  return { condition, seed, frameMs: tick_ms, baseDirectory: dirname(settings.config_file) }
}
