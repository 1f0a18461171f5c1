// The phases live-evals can run, one registration each. The Vitest layer looks a phase up here and knows
// nothing else about it. Each phase is imported when it is first asked for, so a worker loads only the phase it
// runs (a CRAWL worker never loads RUN's caller, driver and grader); descriptions.ts is the main process's view.
import type { Phase } from '../config/index.ts'
import { entryOfPhase } from './descriptions.ts'
import type { PhaseModule } from './engine/phase-module.ts'

const PHASE_MODULES: Record<Phase, () => Promise<PhaseModule>> = {
  crawl: async () => (await import('./crawl/index.ts')).crawlPhase,
  walk: async () => (await import('./walk/index.ts')).walkPhase,
  run: async () => (await import('./run/index.ts')).runPhase,
}

/** The phase's module, or an error naming the phases that exist. */
export async function phaseModule(phase: Phase): Promise<PhaseModule> {
  return entryOfPhase(PHASE_MODULES, phase)()
}
