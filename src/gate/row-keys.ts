// A gate compares rows across files, so its key adds what a single results.json leaves implicit: the phase
// (run.module) and the architecture (run.configuration.assistant_mode). Two architectures' files of one dataset
// are then different rows, not duplicates.

import type { ResultItem, ResultsDocument } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'

export interface GateRowKey {
  phase: string
  architecture: string
  scenario_id: string
  trial: number
}

/** The architecture a run evaluated; `unknown` for a file that does not say (a reference run of another kind). */
export function architectureOf(document: ResultsDocument): string {
  const mode = document.run.configuration.assistant_mode
  return typeof mode === 'string' && mode !== '' ? mode : 'unknown'
}

export function gateRowKey(document: ResultsDocument, row: ResultItem): GateRowKey {
  const { scenario_id, trial } = rowKeyOf(row)
  return { phase: document.run.module, architecture: architectureOf(document), scenario_id, trial }
}

export function keyText(key: GateRowKey): string {
  return JSON.stringify([key.phase, key.architecture, key.scenario_id, key.trial])
}

/** How a key reads in a message: `crawl/client restaurant_001 (trial 2)`; trial 1 is not repeated. */
export function describeKey(key: GateRowKey): string {
  const trial = key.trial === 1 ? '' : ` (trial ${key.trial})`
  return `${key.phase}/${key.architecture} ${key.scenario_id}${trial}`
}
