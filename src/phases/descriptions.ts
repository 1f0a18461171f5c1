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

/**
 * `table`'s entry for `phase`, or an error naming the phases that exist: a phase name can arrive unchecked (a
 * settings object built by hand), and the main process's table and the workers' (registry.ts) answer it alike.
 */
export function entryOfPhase<Entry>(table: Readonly<Record<Phase, Entry>>, phase: Phase): Entry {
  const entry = table[phase] as Entry | undefined
  if (entry === undefined) {
    throw new Error(
      `live-evals has no Vitest suite for the ${phase} phase yet (available: ${Object.keys(table).join(', ')})`,
    )
  }
  return entry
}

/** The phase's description, or an error naming the phases that exist. */
export function phaseDescription(phase: Phase): PhaseDescription {
  return entryOfPhase(PHASE_DESCRIPTIONS, phase)
}
