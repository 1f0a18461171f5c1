// live-evals: the API of a spec file. What is evaluated (scenarioSuite with a dataset or inline scenarios),
// the assistant under test (defineAssistant, or the bundled restaurant), and the assertions (a test body with
// the fixtures and the matchers). The Vitest side is `live-evals/vitest`; the results reporter `live-evals/reporter`.
export type { AssistantApplication } from './assistants/application.ts'
export {
  type AssistantDefinition,
  defineAssistant,
  type OfflineRule,
  type SpokenTurn,
  type ToolContext,
  type ToolDefinitionInput,
} from './define/assistant.ts'
export { defineScenario, type ScenarioDefinition } from './define/scenario.ts'
export type { ExpectedToolCallInput } from './scenarios/index.ts'
export type { LiveEvalsTaskMeta, MatcherGrade } from './vitest/meta.ts'
export type { MultiTurnRun, ScenarioRun, SingleTurnRun } from './vitest/scenario-run.ts'
export { type ScenarioSuiteOptions, type ScenarioTestContext, scenarioSuite } from './vitest/suite.ts'
