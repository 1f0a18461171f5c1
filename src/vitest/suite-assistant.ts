// What scenarioSuite() checks of the assistant under test when the suite is collected, before any test is
// registered: one error for the spec file, naming it, instead of the same failure in every scenario.
//   - Offline, the assistant must have offline rules (its scripted stand-in for the voice model).
//   - Every tool a scenario expects (required, prohibited, or a procedure step) must be one of its tools: a
//     misspelled name could never match, so every such scenario would fail for a reason that is not the agent's.
import type { AssistantApplication } from '../assistants/application.ts'
import type { LoadedScenario } from '../scenarios/index.ts'

/** The problems of a suite's assistant and scenarios, as lines; empty when there are none. */
export function suiteAssistantProblems(
  assistant: AssistantApplication,
  scenarios: readonly LoadedScenario[],
  mode: 'offline' | 'live',
): string[] {
  const problems: string[] = []
  if (mode === 'offline' && assistant.offlineBehaviour === undefined) {
    problems.push(
      `assistant "${assistant.name}" has no offline rules, so it cannot run offline: give defineAssistant() ` +
        '`offline: { rules }` (which caller words get which reply and tool call), or run live with LIVE_EVALS_MODE=live',
    )
  }
  const tools = new Set(assistant.tools.map((tool) => tool.name))
  const known = tools.size === 0 ? 'it has no tools' : `its tools: ${[...tools].join(', ')}`
  for (const scenario of scenarios) {
    const named = [
      ...scenario.expected.tools.required.map((call, index) => [
        call.name,
        `expected.tools.required[${index}].name`,
      ]),
      ...scenario.expected.tools.prohibited.map((call, index) => [
        call.name,
        `expected.tools.prohibited[${index}].name`,
      ]),
      ...(scenario.expected.procedure?.steps ?? []).map((step, index) => [
        step.tool,
        `expected.procedure.steps[${index}].tool`,
      ]),
    ]
    for (const [name, path] of named) {
      if (name === null || name === undefined || tools.has(name)) continue
      problems.push(
        `scenario ${scenario.id}: ${path} is "${name}", which assistant "${assistant.name}" does not define; ${known}`,
      )
    }
  }
  return problems
}
