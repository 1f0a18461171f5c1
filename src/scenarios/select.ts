import type { Phase } from '../config/schema.ts'
import type { Scenario } from './scenario.ts'

// Which scenarios of a dataset a phase runs. CRAWL and WALK share single-turn scenarios (WALK needs a
// recording to play); RUN simulates multi-turn calls. Dataset order is kept so runs are comparable.

// The phases are the configuration's (one list for the whole project).
export type { Phase }

export interface SelectionOptions {
  /** Only these ids (exact match); each must exist and belong to the phase. Empty or absent: no filter. */
  scenarioIds?: readonly string[]
  /** Keep at most this many after filtering; 0 or absent keeps all. */
  maxExamples?: number
}

const PHASE_RULE: Record<Phase, { describe: string; accepts: (scenario: Scenario) => boolean }> = {
  crawl: { describe: 'single_turn scenarios', accepts: (scenario) => scenario.interaction === 'single_turn' },
  walk: {
    describe: 'single_turn scenarios with a recording',
    accepts: (scenario) => scenario.interaction === 'single_turn' && scenario.input.recordings.length > 0,
  },
  run: { describe: 'multi_turn scenarios', accepts: (scenario) => scenario.interaction === 'multi_turn' },
}

export function phaseAccepts(phase: Phase, scenario: Scenario): boolean {
  return PHASE_RULE[phase].accepts(scenario)
}

export function selectScenarios<T extends Scenario>(
  scenarios: readonly T[],
  phase: Phase,
  options: SelectionOptions = {},
): T[] {
  const rule = PHASE_RULE[phase]
  const maxExamples = options.maxExamples ?? 0
  if (!Number.isInteger(maxExamples) || maxExamples < 0) {
    throw new Error(`max examples must be a whole number >= 0 (0 runs all), got ${maxExamples}`)
  }
  let selected = scenarios.filter(rule.accepts)
  if (options.scenarioIds !== undefined && options.scenarioIds.length > 0) {
    const wanted = new Set(options.scenarioIds)
    const known = new Set(scenarios.map((scenario) => scenario.id))
    const unknown = [...wanted].filter((id) => !known.has(id))
    if (unknown.length > 0) {
      throw new Error(
        `unknown scenario id${unknown.length === 1 ? '' : 's'} ${unknown.map((id) => `"${id}"`).join(', ')}; ` +
          `the ${phase} phase can run: ${selected.map((scenario) => scenario.id).join(', ') || '(none)'}`,
      )
    }
    const outsidePhase = scenarios.filter((scenario) => wanted.has(scenario.id) && !rule.accepts(scenario))
    if (outsidePhase.length > 0) {
      throw new Error(
        `scenario${outsidePhase.length === 1 ? '' : 's'} ${outsidePhase.map((scenario) => `"${scenario.id}"`).join(', ')} ` +
          `cannot run in the ${phase} phase, which runs ${rule.describe}`,
      )
    }
    selected = selected.filter((scenario) => wanted.has(scenario.id))
  }
  return maxExamples === 0 ? selected : selected.slice(0, maxExamples)
}
