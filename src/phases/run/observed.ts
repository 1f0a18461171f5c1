// What RUN's observe stage hands to its grader: the conversation as played (the caller's utterances and actions,
// how it ended), the graders' RunObservation, the interaction metrics and turn metrics on the one timeline, the
// caller simulation's validity, and the session timeline and trace for the artifacts.
import type { RunObservation } from '../../grading/run/run-outcome.ts'
import type { InteractionAnalysis } from '../../metrics/interaction.ts'
import type { CallTimeline } from '../../metrics/voice-metrics.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'
import type { SessionTrace } from '../../observability/trace.ts'
import type { RunTurnMetrics } from '../../reporting/extensions/run-turns.ts'
import type { OfflineConversation } from './conversation.ts'
import type { LiveConversation } from './live/result.ts'
import type { SimulationValidity } from './validity.ts'

/** A played call: the scripted caller's offline, or two GPT-Live sessions' (which adds the caller's record). */
export type PlayedConversation = OfflineConversation | LiveConversation

export interface RunObserved {
  conversation: PlayedConversation
  observation: RunObservation
  interaction: InteractionAnalysis
  turns: RunTurnMetrics
  /** The call as the voice metrics read it; absent, the row has no voice_metrics (an observation built by hand). */
  voice?: CallTimeline
  validity: SimulationValidity
  /** The row's `observability.interaction.caller_mode`. */
  callerMode: 'offline_fixture' | 'gpt-live'
  timeline: SessionTimeline
  trace: SessionTrace
  sessionId: string
  /** A failure after the call was played (pending work, cleanup): the row's stage; the call stays as diagnostics. */
  failure: { stage: string; message: string } | null
}
