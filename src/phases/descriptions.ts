// What the main process knows of each phase (see PhaseDescription): enough to plan a run and configure Vitest.
// registry.ts holds the whole phases, for the workers that run scenarios.
import type { Phase } from '../config/index.ts'
import { crawlDescription } from './crawl/description.ts'
import type { PhaseDescription } from './engine/phase-module.ts'
import { runDescription } from './run/description.ts'
import { walkDescription } from './walk/description.ts'

const PHASE_DESCRIPTIONS: Record<Phase, PhaseDescription> = {
  crawl: crawlDescription,
  walk: walkDescription,
  run: runDescription,
}

/** The phase's description, or an error naming the phases that exist. */
export function phaseDescription(phase: Phase): PhaseDescription {
  const description = PHASE_DESCRIPTIONS[phase]
  if (description === undefined) {
    throw new Error(
      `live-evals has no Vitest suite for the ${phase} phase yet (available: ${Object.keys(PHASE_DESCRIPTIONS).join(', ')})`,
    )
  }
  return description
}
