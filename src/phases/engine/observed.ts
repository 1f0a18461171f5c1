// What the observe stage hands to assess and record, whatever the phase: the graders' Observation, the audio
// metrics, the voice metrics' call timeline, usage, and the session's timeline and trace (for the artifacts).
import type { InteractionMetrics } from '../../metrics/interaction.ts'
import type { CallTimeline } from '../../metrics/voice-metrics.ts'
import type { SingleTurnObservation } from '../../observability/observation.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'
import type { SessionTrace } from '../../observability/trace.ts'
import type { UsageRecord } from '../../reporting/consumption.ts'

export interface ObservedConversation {
  observation: SingleTurnObservation
  interaction: InteractionMetrics
  /** The session as the voice metrics read it; the record stage adds the scenario's expectation. */
  voice: CallTimeline
  /** Cumulative GPT-Live usage seconds of the assistant's session; null when none was reported. */
  frontendUsageSeconds: number | null
  /** The assistant backend's usage (never an evaluator model's). */
  backendUsage: UsageRecord[]
  timeline: SessionTimeline
  trace: SessionTrace
  sessionId: string
  /** Session clock when the conversation ended. */
  endedAtMs: number
  delegationError: string | null
  listenerProblems: string[]
  /** The architecture's record of its delegations (details JSON). */
  delegationRecords: unknown
  /** Real time: how late each audio frame went out (the row's pacing error); null on the virtual clock. */
  frameLateness: number[] | null
}
