// The runs of a Vitest run started by `live-evals explain` (src/explain/rerun-plan.ts): one per arm of the
// explained scenario, each in its own folder `<plan directory>/<arm>` (created here, exclusively: an explain never
// writes into a folder that exists), with the run's results.json metadata as any run has it. The arm's one change
// is carried out per test (src/explain/arm-env.ts); here only what must hold before anything runs: a barge-in
// an arm removes must be one the project's interventions file schedules for the scenario.
import { join } from 'node:path'
import { makePrivateDirectories } from '../../artifacts/index.ts'
import { makePrivateDirectoryExclusively } from '../../artifacts/private-directories.ts'
import type { Phase, SettingsFor } from '../../config/index.ts'
import type { LoadedRerunPlan } from '../../explain/rerun-plan.ts'
import { loadInterventions } from '../../phases/run/interventions/index.ts'
import { RESULTS_FILE } from './run-directories.ts'
import { RunPlanProblem } from './run-plan-problem.ts'

export interface ArmRunDirectory {
  arm: string
  directory: string
  /** results.json `run.id`: the scenario and the arm. */
  name: string
  resultsFile: string
  claim: null
}

/** Checks the plan against the project's settings, then creates each arm's run folder. */
export async function claimArmRunDirectories(
  settings: SettingsFor<Phase>,
  plan: LoadedRerunPlan,
): Promise<ArmRunDirectory[]> {
  if (settings.phase === 'run') {
    const schedule = await loadInterventions(settings.simulation.interventions_file, null)
    const scheduled = new Set((schedule.get(plan.scenario_id) ?? []).map((entry) => entry.id))
    for (const { change } of plan.arms) {
      if (change?.kind === 'remove_barge_in' && !scheduled.has(change.id)) {
        const file = settings.simulation.interventions_file
        throw new RunPlanProblem(
          `live-evals explain removes the scheduled barge-in ${change.id} of ${plan.scenario_id}, which ` +
            `${file === null ? 'no simulation.interventions_file names' : `${file} does not hold`}; ` +
            'give the run’s settings (the explain command’s --config, or LIVE_EVALS_INTERVENTIONS)',
        )
      }
    }
  }
  await makePrivateDirectories(plan.directory, 'explain re-run folder')
  const claimed: ArmRunDirectory[] = []
  for (const { arm } of plan.arms) {
    const directory = join(plan.directory, arm)
    try {
      await makePrivateDirectoryExclusively(directory)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new RunPlanProblem(
          `the explain re-run folder ${directory} exists already; run live-evals explain again`,
        )
      }
      throw error
    }
    claimed.push({
      arm,
      directory,
      name: `${plan.scenario_id}-${arm}`,
      resultsFile: RESULTS_FILE,
      claim: null,
    })
  }
  return claimed
}
