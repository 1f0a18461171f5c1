// Tag names scenarios carry, so runs can be filtered: `--tags-filter="crawl && type:booking && !assistant:client"`.
import type { Phase } from '../config/index.ts'
import type { AssistantArchitecture } from './settings.ts'

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
