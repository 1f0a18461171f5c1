// Tag names scenarios carry, so runs can be filtered: `--tags-filter="crawl && type:booking && !assistant:client"`.
// Vitest's strictTags rejects a whole file whose test carries an undeclared tag, so a project declares every tag
// up front, without reading its dataset: the phase, the architectures, the reference's shared scenario types
// and the interaction kinds (a scenario's type falls back to its interaction). A scenario type outside that
// set (a custom `type`, or a first tag used as its type) carries no type tag.
import type { Phase } from '../config/index.ts'
import { ASSISTANT_ARCHITECTURES, type AssistantArchitecture } from './settings.ts'

/** The scenario types of the reference's contract (`type`), plus the interaction kinds it falls back to. */
export const DECLARED_SCENARIO_TYPES = [
  'booking',
  'availability',
  'cancellation',
  'clarification',
  'information',
  'refusal',
  'single_turn',
  'multi_turn',
] as const

export function phaseTag(phase: Phase): string {
  return phase
}

export function architectureTag(architecture: AssistantArchitecture): string {
  return `assistant:${architecture}`
}

/** Vitest tag names cannot hold spaces or the filter operators, so those become `_`. */
export function scenarioTypeTag(type: string): string {
  return `type:${type.replace(/[\s!()*|&]+/g, '_')}`
}

export interface DeclaredTag {
  name: string
  description: string
}

/** Every tag a scenario test of this phase can carry. */
export function declaredTags(phase: Phase): DeclaredTag[] {
  return [
    { name: phaseTag(phase), description: `live-evals ${phase.toUpperCase()} scenarios` },
    ...ASSISTANT_ARCHITECTURES.map((architecture) => ({
      name: architectureTag(architecture),
      description: `evaluated with the ${architecture} assistant architecture`,
    })),
    ...DECLARED_SCENARIO_TYPES.map((type) => ({
      name: scenarioTypeTag(type),
      description: `scenario type ${type}`,
    })),
  ]
}
