// `live-evals import-call` cannot know what the assistant should achieve for a real caller, so it writes a
// placeholder `expected.answer` that says so. The offline run never reads the answer (its graders check tools,
// state and delegation), so a call graded against the placeholder could pass and look evaluated. It must not: a
// scenario whose answer is still the placeholder fails its row at input_setup (src/phases/engine/run-scenario.ts),
// re-grading refuses it, and `live-evals validate` lists it as a problem; each names the scenario, the field and
// what to write.
import type { DatasetViolation } from './violations.ts'

/** What every placeholder starts with; no real expected answer does. */
const PLACEHOLDER_MARK = 'TO FILL IN:'

/** The expected answer an imported call starts with: the import cannot know it, and says so. */
export const PLACEHOLDER_ANSWER = `${PLACEHOLDER_MARK} what the assistant should achieve for this caller (imported call; the import cannot know it).`

interface WithExpectedAnswer {
  id: string
  expected: { answer: string }
}

const WHAT_TO_DO =
  'expected.answer is still the placeholder live-evals import-call wrote ("TO FILL IN: …"), so this scenario cannot ' +
  'be graded: write what the assistant should achieve for this caller in expected.answer (and its criteria, ' +
  'tools and state) in the dataset, then run it again'

/** Why the scenario cannot be graded yet, naming it and the field; null when its answer is written. */
export function placeholderExpectationProblem(scenario: WithExpectedAnswer): string | null {
  return scenario.expected.answer.trimStart().startsWith(PLACEHOLDER_MARK)
    ? `Scenario ${scenario.id}: ${WHAT_TO_DO}`
    : null
}

/** The dataset's scenarios whose answer is still the placeholder, as `live-evals validate` lists problems. */
export function placeholderExpectationViolations(dataset: {
  file: string
  scenarios: readonly WithExpectedAnswer[]
}): DatasetViolation[] {
  return dataset.scenarios.flatMap((scenario, index) =>
    placeholderExpectationProblem(scenario) === null
      ? []
      : [
          {
            file: dataset.file,
            scenarioId: scenario.id,
            path: `scenarios[${index}].expected.answer`,
            message: `${WHAT_TO_DO} (a run fails this scenario at input_setup until then)`,
          },
        ],
  )
}
