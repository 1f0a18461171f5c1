// How console lines name a run: by its architecture (`[responses] Completed …`), and in a run of several models by
// model and architecture (`[gpt-live-1.1/responses] Completed …`), so each line of a matrix says which model it is
// about. A single-model run prints exactly what it printed before models could be compared. Its own small module:
// the reporter reads it without loading the run planner (and with it the phase engine).
import type { PlannedRun } from '../run-plan.ts'

export function consoleLabel(run: Pick<PlannedRun, 'architecture' | 'model' | 'multiModel'>): string {
  return run.multiModel === true && run.model !== undefined
    ? `${run.model}/${run.architecture}`
    : run.architecture
}
