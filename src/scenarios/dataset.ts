import { z } from 'zod'
import { isJsonObject } from './json-object.ts'
import { quoteText } from './quote.ts'
import { RunGatedScenarioSchema, type ScenarioProblem } from './run-gate.ts'

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
      message: `scenario ids must be unique (case-insensitive): ${quoteText(id)} repeats the id of scenarios[${first}]`,
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
    scenarios: z.array(RunGatedScenarioSchema),
  })
  .superRefine(
    (dataset, ctx) => {
      // Scenarios that failed their own rules still carry their ids, so repeats are found among all of them.
      const ids = dataset.scenarios.map((scenario: unknown) =>
        isJsonObject(scenario) ? scenario.id : undefined,
      )
      for (const problem of duplicateScenarioIdProblems(ids)) ctx.addIssue({ code: 'custom', ...problem })
    },
    { when: (payload) => isJsonObject(payload.value) && Array.isArray(payload.value.scenarios) },
  )
export type Dataset = z.infer<typeof DatasetSchema>
