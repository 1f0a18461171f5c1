// The observe stage of an offline RUN conversation: the graders' RunObservation (grading/run) and the
// interaction metrics on the one timeline. Caller turns come from the caller's voiced audio (what it sent),
// labelled by the plan's actions (a STOP is a closing, a backchannel is not a request) and merged where the
// caller merely continued (caller-turns.ts).
import { backendMessagesOf, parseArguments } from '../../assistants/architectures/index.ts'
import { delegationAnswers, workPending } from '../../faults/experience.ts'
import { observedFaults } from '../../faults/observed.ts'
import type { RunObservation } from '../../grading/run/run-outcome.ts'
import { analyzeInteraction, type InteractionAnalysis } from '../../metrics/interaction.ts'
import type { CallerTurn } from '../../metrics/response-opportunities.ts'
import { bargeInOnsetsMs } from '../../metrics/stop-time.ts'
import type { CallTimeline } from '../../metrics/voice-metrics.ts'
import type { ToolExecution } from '../../observability/observation.ts'
import { mergeCallerContinuations } from './caller-turns.ts'
import type { PlayedConversation } from './observed.ts'
import type { PlannedUtterance } from './offline-caller.ts'
import { bargeInYields, type RunTurnMetrics, summarizeTurnMetrics, verifiedAnswers } from './turn-metrics.ts'

function kindOf(utterance: PlannedUtterance | undefined): CallerTurn['kind'] {
  if (utterance?.action === 'STOP') return 'closing'
  if (utterance?.action === 'BACKCHANNEL') return 'backchannel'
  return 'request'
}

export function observeRunConversation(conversation: PlayedConversation): {
  observation: RunObservation
  interaction: InteractionAnalysis
  turns: RunTurnMetrics
  /** The call as the voice metrics read it (metrics/voice-metrics.ts); the row adds the scenario's expectation. */
  voice: CallTimeline
} {
  const { call, plan } = conversation
  const executions: ToolExecution[] = call.assistant.tools.executions().map((record, index) => {
    const callId = record.call_id ?? `${record.name}#${index}`
    return {
      call_id: callId,
      name: record.name,
      arguments: parseArguments(record.arguments),
      status: record.status,
      output: record.output,
      completed_at_ms: call.executionTimes.get(callId) ?? null,
      ...(record.fault === undefined ? {} : { fault: record.fault }),
    }
  })
  const lines = call.timeline.lines()
  const transcript = lines.map((line) => ({
    role: line.role,
    text: line.text,
    start_ms: line.startMs,
    end_ms: line.endMs,
  }))
  const completedTimes = executions.flatMap((execution) =>
    execution.status === 'completed' && execution.completed_at_ms !== null ? [execution.completed_at_ms] : [],
  )
  const lastToolMs = completedTimes.length === 0 ? null : Math.max(...completedTimes)
  const postToolText =
    lastToolMs === null
      ? ''
      : lines
          .filter((line) => line.role === 'assistant' && line.startMs >= lastToolMs)
          .map((line) => line.text)
          .join(' ')
  const observationEnd = Math.max(call.endedAtMs, call.timeline.recorder.durationMs)
  const speech = call.timeline.speechIntervals()
  const toInterval = (interval: { startMs: number; endMs: number }) => ({
    start_ms: interval.startMs,
    end_ms: interval.endMs,
  })
  // Under a preset the recorded caller track carries noise: when the caller spoke is measured on its clean voice.
  const callerSpeech = call.realism?.callerSpeechIntervals ?? speech.caller
  const faults = observedFaults(call.assistant.faults, executions, call.delegationIds)
  const observation: RunObservation = {
    termination_reason: conversation.termination_reason,
    delegation_ids: [...call.delegationIds],
    tool_executions: executions,
    initial_application_state: call.assistant.tools.initialState,
    final_application_state: call.assistant.tools.snapshot(),
    transcript,
    post_tool_assistant_text: postToolText,
    backend_messages: backendMessagesOf(call.assistant.delegations()),
    ...(faults === null ? {} : { faults }),
    // What the caller lived through: the assistant's voice as it heard it (through the line), its own voice.
    experience: {
      work_pending_ms: workPending(
        call.timeline.delegations,
        delegationAnswers(call.assistant.delegations()),
        observationEnd,
      ),
      assistant_heard_ms: call.listener.voiced.map((interval) => ({ ...interval })),
      caller_voiced_ms: callerSpeech.map(toInterval),
    },
  }

  const assistantVoiced = speech.assistant.map(toInterval)
  const segments: CallerTurn[] = callerSpeech.map((interval) => ({
    ...toInterval(interval),
    kind: kindOf(
      plan.find((utterance) => interval.startMs < utterance.endMs && interval.endMs > utterance.startMs),
    ),
  }))
  const interaction = analyzeInteraction({
    caller_turns: mergeCallerContinuations(segments, assistantVoiced),
    assistant_turns: assistantVoiced.map((interval) => [interval]),
    delegation_intervals: call.timeline.delegations.map((span) => ({
      start_ms: span.startMs,
      end_ms: span.settledMs ?? observationEnd,
    })),
    observation_end_ms: observationEnd,
  })
  // Barge-ins, attributed after the fact (metrics/stop-time.ts).
  const cues = bargeInOnsetsMs(segments, assistantVoiced)
  const answers = verifiedAnswers(
    interaction.caller_turns,
    assistantVoiced,
    {
      delegation_starts_ms: call.timeline.delegations.map((span) => span.startMs),
      tool_results_ms: completedTimes,
    },
    observationEnd,
  )
  // Scheduled barge-ins are measured from their cue; one found after the fact inside one is not counted again.
  const yields = bargeInYields(cues, conversation.interventions, assistantVoiced)
  return {
    observation,
    interaction,
    turns: summarizeTurnMetrics(yields, answers),
    voice: {
      caller_turns: interaction.caller_turns,
      caller_voiced: callerSpeech.map(toInterval),
      assistant_voiced: assistantVoiced,
      assistant_utterances: lines.filter((line) => line.role === 'assistant').map((line) => line.text),
      delegation_starts_ms: call.timeline.delegations.map((span) => span.startMs),
      tool_results_ms: completedTimes,
      barge_in_cues_ms: yields.flatMap((outcome) => (outcome.cue_ms === null ? [] : [outcome.cue_ms])),
      tool_calls: executions.map((execution) => ({ name: execution.name, arguments: execution.arguments })),
      call_start_ms: 0,
      observation_end_ms: observationEnd,
    },
  }
}
