// The live RUN's one error type. A live conversation that cannot get going (a session that does not start, an
// opening that never comes or comes out of turn) ends with a LiveRunError: a StageError for the row's
// `error.stage`, plus §6's `termination_reason` (`caller_connection`, `caller_opening`, `assistant_opening`, …),
// which names the failure more precisely than the shared stage vocabulary does.
import { type FailureStage, StageError } from '../../engine/stage.ts'

/** §6's runtime failure reasons, recorded as the row's termination_reason. */
export type LiveFailureReason =
  | 'assistant_connection'
  | 'caller_connection'
  | 'caller_opening'
  | 'assistant_opening'
  | 'pending_work_timeout'
  | 'cleanup_timeout'
  | 'session_close'
  | 'response_collection'

export class LiveRunError extends StageError {
  readonly terminationReason: LiveFailureReason

  constructor(
    stage: FailureStage,
    terminationReason: LiveFailureReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(stage, `${terminationReason}: ${message}`, options)
    this.name = 'LiveRunError'
    this.terminationReason = terminationReason
  }
}
