// The phases live-evals can run, one registration each. The Vitest layer looks a phase up here and knows
// nothing else about it.
import type { Phase } from '../config/index.ts'
import { crawlPhase } from './crawl/index.ts'
import type { PhaseModule } from './engine/phase-module.ts'
import { runPhase } from './run/index.ts'
import { walkPhase } from './walk/index.ts'

const PHASE_MODULES: Record<Phase, PhaseModule> = {
  crawl: crawlPhase,
  walk: walkPhase,
  run: runPhase,
}

/** The phase's module, or an error naming the phases that exist. */
export function phaseModule(phase: Phase): PhaseModule {
  const module = PHASE_MODULES[phase]
  if (module === undefined) {
    throw new Error(
      `live-evals has no Vitest suite for the ${phase} phase yet (available: ${Object.keys(PHASE_MODULES).join(', ')})`,
    )
  }
  return module
}
