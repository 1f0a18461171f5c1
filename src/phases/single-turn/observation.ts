// The observe stage of a single-turn conversation: from what the session saw to the facts graders and metrics
// need: the SingleTurnObservation (validated with its zod schema), the audio metrics and the voice metrics'
// call timeline on the session timeline (voice-timeline.ts), and the usage for consumption.

import { parseArguments } from '../../assistants/architectures/index.ts'
import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import { delegationAnswers, workPending } from '../../faults/experience.ts'
import { observedFaults } from '../../faults/observed.ts'
import { computeInteractionMetrics, type InteractionMetrics } from '../../metrics/interaction.ts'
import {
  type SingleTurnObservation,
  SingleTurnObservationSchema,
  type ToolExecution,
} from '../../observability/observation.ts'
import { assistantBackendUsageRecords, type UsageRecord } from '../../reporting/consumption.ts'
import type { CallerAudio } from '../engine/caller.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { CollectedResponse } from './collect.ts'
import type { ScenarioSession } from './scenario-session.ts'
import { type SingleTurnSpeech, singleTurnSpeech, singleTurnVoiceTimeline } from './voice-timeline.ts'

/** The observe stage: everything the graders, metrics and artifacts need of one single-turn session. */
export function observeSingleTurn(
  session: ScenarioSession,
  callerAudio: CallerAudio,
  collected: CollectedResponse,
  backendModel: string,
): ObservedConversation {
  const { assistant, timeline } = session
  const speech = speechOf(session, callerAudio, collected)
  const observation = buildObservation(session, callerAudio, collected, speech)
  return {
    observation,
    interaction: interactionMetrics(session, speech),
    voice: singleTurnVoiceTimeline(speech, {
      lines: timeline.lines(),
      delegationStartsMs: timeline.delegations.map((span) => span.startMs),
      toolExecutions: observation.tool_executions,
    }),
    frontendUsageSeconds:
      collected.closeOutcome.type === 'closed'
        ? collected.closeOutcome.usageSeconds
        : (timeline.usage.at(-1)?.seconds ?? null),
    backendUsage: backendUsageRecords(assistant, backendModel),
    timeline,
    trace: session.trace,
    sessionId: assistant.started.session.id,
    endedAtMs: collected.endedAtMs,
    delegationError: collected.delegationError,
    listenerProblems: session.listenerProblems,
    delegationRecords: assistant.delegations(),
    frameLateness: collected.frameLateness,
  }
}

function buildObservation(
  session: ScenarioSession,
  callerAudio: CallerAudio,
  collected: CollectedResponse,
  voiced: SingleTurnSpeech,
): SingleTurnObservation {
  const { assistant, timeline } = session
  const executions: ToolExecution[] = assistant.tools.executions().map((record, index) => ({
    call_id: record.call_id ?? '',
    name: record.name,
    arguments: parseArguments(record.arguments),
    status: record.status,
    output: record.output,
    completed_at_ms: collected.toolCompletionTimes.at(index),
    ...(record.fault === undefined ? {} : { fault: record.fault }),
  }))
  const lines = timeline.lines()
  const speech = timeline.speechIntervals()
  const transcript: SingleTurnObservation['transcript'] = lines.map((line) => ({
    role: line.role,
    text: line.text,
    start_ms: line.startMs,
  }))
  if (!transcript.some((line) => line.role === 'user')) {
    // No input transcript arrived: the caller said exactly the request text (we produced the audio).
    transcript.unshift({ role: 'user', text: callerAudio.text, start_ms: speech.caller[0]?.startMs ?? null })
  }
  // The caller can hear a tool's result only once it was published to the voice model.
  const settled = timeline.delegations.map((span) => span.settledMs).filter((ms): ms is number => ms !== null)
  const resultMs = executions.length > 0 && settled.length > 0 ? Math.max(...settled) : null
  const postToolText =
    resultMs === null
      ? ''
      : lines
          .filter((line) => line.role === 'assistant' && line.startMs >= resultMs)
          .map((line) => line.text)
          .join(' ')
  const faults = observedFaults(assistant.faults, executions, session.delegationIds)
  return SingleTurnObservationSchema.parse({
    termination_reason: collected.terminationReason,
    delegation_ids: [...session.delegationIds],
    requested_tool_calls: assistant.requestedCalls(),
    tool_executions: executions,
    initial_application_state: assistant.tools.initialState,
    final_application_state: assistant.tools.snapshot(),
    transcript,
    post_tool_assistant_text: postToolText,
    caller_turn_count: speech.caller.length > 0 ? 1 : 0,
    assistant_response_episode_count: speech.assistant.length,
    closing_turn_count: 0,
    ...(faults === null ? {} : { faults }),
    experience: {
      work_pending_ms: workPending(
        timeline.delegations,
        delegationAnswers(assistant.delegations()),
        voiced.observation_end_ms,
      ),
      assistant_heard_ms: voiced.assistant_voiced,
      caller_voiced_ms: voiced.caller_voiced,
    },
  })
}

/** Who spoke when, on the session clock; the caller's speech as known at its source (noise is not speech). */
function speechOf(session: ScenarioSession, callerAudio: CallerAudio, collected: CollectedResponse) {
  const { timeline } = session
  const speech = timeline.speechIntervals()
  return singleTurnSpeech({
    callerSpeech: callerAudio.callerSpeech ?? speech.caller,
    assistantSpeech: speech.assistant,
    observationEndMs: Math.max(collected.endedAtMs, timeline.recorder.durationMs),
  })
}

/** Audio-derived interaction metrics (§4.2) on the session timeline. */
function interactionMetrics(session: ScenarioSession, speech: SingleTurnSpeech): InteractionMetrics {
  const observationEnd = speech.observation_end_ms
  return computeInteractionMetrics({
    caller_turns: speech.caller_turns,
    assistant_turns: speech.assistant_voiced.map((interval) => [interval]),
    delegation_intervals: session.timeline.delegations.map((span) => ({
      start_ms: span.startMs,
      end_ms: span.settledMs ?? observationEnd,
    })),
    observation_end_ms: observationEnd,
  })
}

/** Backend usage of the assistant under test (nested Responses usage); never the judge's. */
function backendUsageRecords(assistant: AssistantUnderTest, backendModel: string): UsageRecord[] {
  return assistantBackendUsageRecords(assistant.backendUsage(), backendModel)
}

/**
 * When each tool execution completed, on the session's media clock: the runtime does not stamp its records, so the
 * collection loop looks after every clock step and an execution that appeared since the last look gets that
 * step's end (at most one step late, never before it happened). The runtime's log only grows, so an execution is
 * known by its index in it. One that first appeared after collection stopped has no time: null, not a guess.
 */
export class ToolCompletionTimes {
  readonly #times: number[] = []

  /** After a clock step: the runtime now holds `executionCount` records, and the clock reads `nowMs`. */
  notice(executionCount: number, nowMs: number): void {
    while (this.#times.length < executionCount) this.#times.push(nowMs)
  }

  /** The completion time of the runtime's `index`-th execution, or null when it was not seen. */
  at(index: number): number | null {
    return this.#times[index] ?? null
  }
}
