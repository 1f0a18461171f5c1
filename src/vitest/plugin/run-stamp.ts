// What the runner stamps on every test file of a live-evals run: the run plan without the settings (they hold
// credentials) and without the scenarios (evaluator-only data). The stamp travels with the file's tasks into
// blob reports, so `vitest --merge-reports` can rebuild every run's results.json from the blobs alone.
import type { z } from 'zod'
import { type RunPlan, RunPlanFieldsSchema } from '../run-plan-schema.ts'

export const RunStampSchema = RunPlanFieldsSchema.pick({
  phase: true,
  mode: true,
  dataset: true,
  runName: true,
  shard: true,
  scenarioIds: true,
  runs: true,
})

export type RunStamp = z.infer<typeof RunStampSchema>

declare module 'vitest' {
  interface TaskMeta {
    /** On test files: the stamp of the run the file belongs to (lets reporters work on merged blob reports). */
    liveEvalsRunStamp?: RunStamp
  }
}

export function runStampOf(plan: RunPlan): RunStamp {
  return RunStampSchema.parse({
    phase: plan.phase,
    mode: plan.mode,
    dataset: plan.dataset,
    runName: plan.runName,
    shard: plan.shard,
    scenarioIds: plan.scenarioIds,
    runs: plan.runs,
  })
}
