// The scenario contract (schema 1.0): schemas, loading, selection, derived properties and the
// assistant-visible view.
export { type Dataset, DatasetSchema, duplicateScenarioIdProblems, SCHEMA_VERSION } from './dataset.ts'
export {
  type ContextMode,
  contextMode,
  conversationContext,
  persona,
  renderConversationContext,
  scenarioType,
  simulationGoal,
} from './derived.ts'
export {
  type DelegationPolicy,
  DelegationPolicySchema,
  type ExpectedOutcome,
  ExpectedOutcomeSchema,
  type ExpectedToolCall,
  type ExpectedToolCallInput,
  ExpectedToolCallSchema,
  type ExpectedTools,
  type GoldenPath,
  type Procedure,
  ProcedureSchema,
  type SopStep,
  SopStepSchema,
} from './expected.ts'
export { type JsonObject, JsonObjectSchema } from './json-object.ts'
export {
  type LoadedDataset,
  type LoadedScenario,
  loadDataset,
  parseDataset,
  type ResolvedRecording,
} from './load.ts'
export {
  MIN_RUN_GOLDEN_TURNS,
  MIN_SUBSTANTIVE_AGENDA_ITEMS,
  runGateProblems,
  type ScenarioProblem,
} from './run-gate.ts'
export {
  AUDIO_CONDITIONS,
  type AudioCondition,
  AudioConditionSchema,
  type ConversationContext,
  type HistoryMessage,
  type Interaction,
  type Recording,
  type Scenario,
  type ScenarioInput,
  ScenarioSchema,
} from './scenario.ts'
export { type Phase, phaseAccepts, type SelectionOptions, selectScenarios } from './select.ts'
export {
  type CallerAction,
  type CallerAgendaItem,
  defaultPersona,
  NON_SUBSTANTIVE_ACTIONS,
  type Persona,
  PersonaSchema,
  type SimulationParameters,
  SimulationParametersSchema,
} from './simulation.ts'
export { DatasetValidationError, type DatasetViolation, describeViolations } from './violations.ts'
export { type AssistantVisibleInput, assistantVisibleInput } from './visible.ts'
