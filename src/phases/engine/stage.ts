// The failure vocabulary every phase shares: the stages of reference §4.4 and the error that knows which stage
// it ended. A failure becomes an infrastructure_error row naming its stage, with unknown counts null.
import { offlineRuleFailure } from './offline-rule-failure.ts'

/** Failure stages, named as the reference toolkit names them. */
export type FailureStage =
  | 'input_setup'
  | 'audio_synthesis'
  | 'connection'
  | 'session_start'
  | 'response_collection'
  | 'output_audio'
  | 'result_validation'
  | 'example_execution'
  | 'semantic_judge'
  | 'caller_simulation'
  // Ours, for cassettes (src/cassettes): writing a recording failed; a replay diverged or its cassette was refused.
  | 'recording'
  | 'replay'
  // Ours: the assistant author's offline rule threw (a bug in their spec file; src/phases/engine/offline-rule-failure.ts).
  | 'offline_rule'

export interface StageFailure {
  stage: FailureStage
  message: string
}

/** An error that knows which stage of the execution it ended. */
export class StageError extends Error {
  readonly stage: FailureStage

  constructor(stage: FailureStage, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'StageError'
    this.stage = stage
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The failure an error stands for: an assistant author's offline rule that threw, wherever in its causes (the
 * author's bug explains whatever it broke on the way out, in every phase); else its own stage when it knows one,
 * else the stage that was running.
 */
export function stageFailureOf(error: unknown, runningStage: FailureStage): StageFailure {
  const ruleFailure = offlineRuleFailure(error)
  if (ruleFailure !== null) return ruleFailure
  return error instanceof StageError
    ? { stage: error.stage, message: error.message }
    : { stage: runningStage, message: describeError(error) }
}
