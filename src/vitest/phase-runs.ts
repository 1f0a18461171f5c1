// What the Vitest layer needs to know about each phase's runs (the interaction it reports, the `configuration`
// block of its results.json, how long one scenario test may take): the phase's own module, from the registry.
import type { Phase } from '../config/index.ts'
import type { PhaseModule } from '../phases/engine/phase-module.ts'
import { phaseModule } from '../phases/registry.ts'

export type PhaseRunDescription = Pick<PhaseModule, 'interaction' | 'configuration' | 'testTimeoutMs'>

export function phaseRunDescription(phase: Phase): PhaseRunDescription {
  return phaseModule(phase)
}
