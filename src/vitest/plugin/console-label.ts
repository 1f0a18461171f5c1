// How console lines name a run: by its architecture (`[responses] Completed …`), and in a run of several models by
// model and architecture (`[gpt-live-1.1/responses] Completed …`), so each line of a matrix says which model it is
// about, and a run started by `live-evals explain` by arm. A single-model run prints exactly what it printed
// before models could be compared. Its own small module: the reporter reads it without loading the run planner
// (and with it the phase engine).
import type { PlannedRun } from '../run-plan-schema.ts'

export function consoleLabel(run: Pick<PlannedRun, 'architecture' | 'model' | 'multiModel' | 'arm'>): string {
  // A run started by `live-evals explain` names its arm: `[explain faults_off/responses] Completed …`.
  if (run.arm !== undefined) return `explain ${run.arm}/${run.architecture}`
  return run.multiModel === true && run.model !== undefined
    ? `${run.model}/${run.architecture}`
    : run.architecture
}
