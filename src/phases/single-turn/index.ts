// Running one single-turn scenario (CRAWL, later WALK): the steps the Vitest fixtures wrap, and their composition.
export { artifactLayout, conversationTranscriptText } from './artifacts.ts'
export { LEAD_IN_MS, prepareCallerAudio } from './caller-audio.ts'
export { type CollectedResponse, collectSingleTurn, STEP_MS } from './collect.ts'
export { DETAILS_SCHEMA_VERSION, type ExecuteOptions, executeSingleTurnScenario } from './execute.ts'
export { buildObservation, interactionMetrics } from './observation.ts'
export {
  type CompletionDecision,
  QUIET_TAIL_MS,
  ResponseCompletionTracker,
} from './response-completion.ts'
export { openScenarioSession, type ScenarioSession, usesVirtualClock } from './scenario-session.ts'
export { createToolState, type ToolState } from './tool-state.ts'
export {
  type CallerAudio,
  type FailureStage,
  type SingleTurnArtifactPaths,
  type SingleTurnEnv,
  type SingleTurnExecution,
  StageError,
  type StageFailure,
} from './types.ts'
