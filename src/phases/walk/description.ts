// What planning needs of WALK (see PhaseDescription): its results configuration and test timeout. The phase
// itself (index.ts) adds the recorded caller, the driver and the grader.
import type { PhaseSettings, WalkSettings } from '../../config/index.ts'
import type { SingleTurnExecution } from '../engine/execution.ts'
import type { PhaseDescription } from '../engine/phase-module.ts'
import { singleTurnConfiguration } from '../single-turn/configuration.ts'
import { singleTurnTestTimeoutMs } from '../single-turn/timeouts.ts'

export function asWalk(settings: PhaseSettings): WalkSettings {
  if (settings.phase !== 'walk') throw new Error(`expected WALK settings, got ${settings.phase}`)
  return settings
}

export const walkDescription: PhaseDescription<SingleTurnExecution> = {
  phase: 'walk',
  interaction: 'single_turn',
  // CRAWL's keys without its text-to-speech ones (the request is a recording), as the reference's WALK.
  configuration: (settings, architecture) =>
    singleTurnConfiguration(asWalk(settings), architecture, 'recorded'),
  testTimeoutMs: (settings) => singleTurnTestTimeoutMs(asWalk(settings)),
}
