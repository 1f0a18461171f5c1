/** A problem found while planning a run that is neither a configuration nor a dataset error (selection, names). */
export class RunPlanProblem extends Error {
  override name = 'RunPlanProblem'
}
