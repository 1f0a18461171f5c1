import { z } from 'zod'
import { runGateProblems, type ScenarioProblem } from './run-gate.ts'
import { ScenarioSchema } from './scenario.ts'

// The dataset wrapper `{ schema_version: "1.0", scenarios: [...] }` and the rules that span scenarios.

export const SCHEMA_VERSION = '1.0'

/** Problems of repeated scenario ids; ids compare case-insensitively because they name files. */
export function duplicateScenarioIdProblems(ids: readonly unknown[]): ScenarioProblem[] {
  const firstIndexById = new Map<string, number>()
  const problems: ScenarioProblem[] = []
  ids.forEach((id, index) => {
    if (typeof id !== 'string') return
    const key = id.toLowerCase()
    const first = firstIndexById.get(key)
    if (first === undefined) {
      firstIndexById.set(key, index)
      return
    }
    problems.push({
      path: ['scenarios', index, 'id'],
      message: `scenario ids must be unique (case-insensitive): "${id}" repeats the id of scenarios[${first}]`,
    })
  })
  return problems
}

/**
 * The whole dataset contract in one schema, for callers that hold parsed JSON. `parseDataset` (load.ts)
 * applies the same rules scenario by scenario so that one broken scenario does not hide the others' problems.
 */
export const DatasetSchema = z
  .strictObject({
    schema_version: z.literal(SCHEMA_VERSION),
    scenarios: z.array(ScenarioSchema),
  })
  .superRefine((dataset, ctx) => {
    for (const problem of duplicateScenarioIdProblems(dataset.scenarios.map((scenario) => scenario.id))) {
      ctx.addIssue({ code: 'custom', ...problem })
    }
    dataset.scenarios.forEach((scenario, index) => {
      for (const problem of runGateProblems(scenario)) {
        ctx.addIssue({
          code: 'custom',
          path: ['scenarios', index, ...problem.path],
          message: problem.message,
        })
      }
    })
  })
export type Dataset = z.infer<typeof DatasetSchema>
