// What a live RUN conversation returns: the offline driver's shape (conversation.ts's OfflineConversation, so
// observe.ts and row.ts grade both the same way), widened where live differs (its completion policy, more ways
// to end), plus the caller simulation's validity, the caller's own record and usage, the observer's
// assessments and usage, the preset's metadata, the relay's lateness, and a failure found after the call was
// played (the conversation is kept as diagnostics; the row is an infrastructure_error at its stage).
import type { RealismSummary } from '../../../audio/effects/index.ts'
import type { LiveSession, LiveSessionOutcome } from '../../../live/index.ts'
import type { ModelUsageEvent } from '../../../models/index.ts'
import type { ClockMode } from '../../../observability/timeline.ts'
import type { ObservedResponseUsage } from '../../../reporting/consumption.ts'
import type { FailureStage } from '../../engine/stage.ts'
import type { OfflineConversation } from '../conversation.ts'
import type { AssessmentRecord } from './completion-observer.ts'
import type { LiveFailureReason } from './errors.ts'
import type { CallerSimulationValidity } from './validity.ts'

/** §6's `caller_completion_policy` for a live call. */
export type LiveCompletionPolicy = 'semantic_conversation_observer' | 'verified_outcome_and_natural_closing'

export type LiveTerminationReason =
  | 'response_completed'
  | 'duration_limit'
  | 'assistant_cut_off'
  | LiveFailureReason

export interface LiveCallerRecord {
  session: LiveSession
  /** The GPT-Live model the caller ran on (simulation.simulator_model). */
  model: string
  voice: string
  closeOutcome: LiveSessionOutcome
  /** `session.closed`'s usage in ms; null when the session did not close with one. */
  audio_duration_ms: number | null
  /** The caller backend's usage per response (never the assistant's consumption). */
  backend_usage: ObservedResponseUsage[]
}

// Scheduled interventions are an offline driver feature for now: a live call's list is empty.
export interface LiveConversation
  extends Omit<OfflineConversation, 'completion_policy' | 'termination_reason'> {
  termination_reason: LiveTerminationReason
  completion_policy: LiveCompletionPolicy
  validity: CallerSimulationValidity
  caller: LiveCallerRecord
  observer: { assessments: AssessmentRecord[]; usage: ModelUsageEvent[]; failure: string | null }
  audio_realism: RealismSummary
  /**
   * How the media clock ran (the row's provenance clock). The timeline itself always counts the audio the
   * sessions were sent (`call.timeline.mode` is 'virtual' in both): that is the sessions' own clock.
   */
  clock_mode: ClockMode
  /** Real time only: how late each frame's paired sends went out (ms); null on the virtual clock. */
  relay_lateness_ms: number[] | null
  /** A failure after the call was played (pending work, cleanup); null when it ended cleanly. */
  failure: { stage: FailureStage; reason: LiveFailureReason; message: string } | null
}
