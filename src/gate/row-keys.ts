// A gate compares rows across files, so its key adds what a single results.json leaves implicit: the phase
// (run.module), the GPT-Live model (run.configuration.model) and the architecture (run.configuration.assistant_mode).
// Two architectures' or two models' files of one dataset are then different rows, not duplicates.

import { DEFAULT_MODELS } from '../config/defaults.ts'
import type { ResultItem, ResultsDocument } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'

export interface GateRowKey {
  phase: string
  /** The GPT-Live model; `unknown` for a file that does not say. */
  model: string
  architecture: string
  scenario_id: string
  trial: number
}

/** The architecture a run evaluated; `unknown` for a file that does not say (a reference run of another kind). */
export function architectureOf(document: ResultsDocument): string {
  const mode = document.run.configuration.assistant_mode
  return typeof mode === 'string' && mode !== '' ? mode : 'unknown'
}

/** The GPT-Live model a run evaluated; `unknown` for a file that does not say. */
export function modelOf(document: ResultsDocument): string {
  const model = document.run.configuration.model
  return typeof model === 'string' && model !== '' ? model : UNKNOWN_MODEL
}

const UNKNOWN_MODEL = 'unknown'

export function gateRowKey(document: ResultsDocument, row: ResultItem): GateRowKey {
  const { scenario_id, trial } = rowKeyOf(row)
  return {
    phase: document.run.module,
    model: modelOf(document),
    architecture: architectureOf(document),
    scenario_id,
    trial,
  }
}

export function keyText(key: GateRowKey): string {
  return JSON.stringify([key.phase, key.model, key.architecture, key.scenario_id, key.trial])
}

/** The key without its model: what the rows of two models of the same scenario share. */
export function keyTextAcrossModels(key: GateRowKey): string {
  return JSON.stringify([key.phase, key.architecture, key.scenario_id, key.trial])
}

/**
 * How a key reads in a message: `crawl/client restaurant_001 (trial 2)`; trial 1 is not repeated, and neither is
 * the default model (`crawl/gpt-live-1.1/client …` names any other).
 */
export function describeKey(key: GateRowKey): string {
  const trial = key.trial === 1 ? '' : ` (trial ${key.trial})`
  const model = key.model === UNKNOWN_MODEL || key.model === DEFAULT_MODELS.live_model ? '' : `${key.model}/`
  return `${key.phase}/${model}${key.architecture} ${key.scenario_id}${trial}`
}
