// Which recordings a re-grade left without a row (`live-evals grade --cassettes`). The child Vitest run decides
// what it runs (its dataset, its spec files, its trials), so a recording can find no test: the scenario left the
// dataset, `--dataset` names another one, the run had fewer trials. Each such recording is named with the reason
// instead of being left out in silence.
import { join } from 'node:path'
import type { PhaseCassettes } from '../cassettes/catalogue.ts'
import { architectureOf } from '../gate/row-keys.ts'
import type { ResultsDocument } from '../reporting/result-schema.ts'
import { DEFAULT_TRIAL, rowKeyOf } from '../reporting/row-key.ts'

/** One recording with no row in the re-graded runs: its folder and why. */
export interface UngradedRecording {
  cassette: string
  reason: string
}

export function recordingsWithoutRow(
  cassettes: PhaseCassettes,
  documents: readonly ResultsDocument[],
): UngradedRecording[] {
  const ungraded: UngradedRecording[] = []
  for (const header of cassettes.headers) {
    const architecture = header.architecture
    const trial = header.trial ?? DEFAULT_TRIAL
    const runs = documents.filter((document) => architectureOf(document) === architecture)
    const keys = runs.flatMap((document) => document.results.map(rowKeyOf))
    const trials = keys.filter((key) => key.scenario_id === header.scenario_id).map((key) => key.trial)
    if (trials.includes(trial)) continue
    const cassette = join(cassettes.directory, header.id)
    const scenario = header.scenario_id
    const reason =
      runs.length === 0
        ? `no ${architecture} run wrote results (see the Vitest output above)`
        : trials.length === 0
          ? `no row of scenario ${scenario} in the ${architecture} run (the project's dataset or spec file does ` +
            'not have it, or --dataset names another dataset; delete the cassette if the scenario is gone)'
          : `no trial ${trial} of scenario ${scenario} in the ${architecture} run (it ran trial(s) ` +
            `${[...new Set(trials)].sort((a, b) => a - b).join(', ')})`
    ungraded.push({ cassette, reason })
  }
  return ungraded
}
